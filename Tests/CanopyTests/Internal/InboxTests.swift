import Testing

@testable import Canopy

/// The inbox on its own: the order it hands entries over in, what it drops, and what it lets go of.
@Suite(.timeLimit(.minutes(1))) struct InboxTests {
    /// Records the actions it receives, and, given a `reduced` list, what became of each entry.
    private final class Receiver: InboxReceiver, @unchecked Sendable {
        // Safety: test-only; used on the test's thread, which runs the inbox's batches itself.
        let name: String
        var received: [String] = []

        init(_ name: String) {
            self.name = name
        }

        func handle(
            _ action: consuming InboxAction,
            entry: EntryContext,
            in turn: borrowing DrainTurn
        ) -> ProcessOutcome {
            let value = action.handle(as: Int.self) { $0 }
            received.append("\(name):\(value)")
            return .reduced
        }

        var holdsItsNode: Bool { true }
    }

    /// Runs everything pending, as a drain does; returns the root's actions in order.
    private func drain(_ inbox: Inbox<Int>) -> [Int] {
        var rootActions: [Int] = []
        var batch = inbox.takeSpare()
        while inbox.take(&batch) {
            asDrain { inbox.run(&batch, in: $0, afterEach: {}, receive: { rootActions.append($0) }) }
        }
        return rootActions
    }

    @Test func entriesForReceiversAndForTheRootKeepTheirOrder() {
        let inbox = Inbox<Int>()
        let first = Receiver("first")
        let second = Receiver("second")
        #expect(inbox.push(1))
        #expect(!inbox.push(2, for: first))
        #expect(!inbox.push(3))
        #expect(!inbox.push(4, for: second))
        #expect(!inbox.push(5, for: first))
        #expect(drain(inbox) == [1, 3])
        #expect(first.received == ["first:2", "first:5"])
        #expect(second.received == ["second:4"])
    }

    @Test func aBurstLongerThanTheKeptCapacityIsDeliveredWhole() {
        // More entries than the buffer keeps across idle periods (1,024): the targets' memory grows
        // several times, and is given back when the drain ends.
        let inbox = Inbox<Int>()
        let receiver = Receiver("child")
        for action in 0..<3_000 {
            _ = inbox.push(action, for: receiver)
        }
        #expect(drain(inbox).isEmpty)
        #expect(receiver.received == (0..<3_000).map { "child:\($0)" })
        // The inbox still works after giving the memory back.
        #expect(inbox.push(7, for: receiver))
        #expect(drain(inbox).isEmpty)
        #expect(receiver.received.last == "child:7")
    }

    @Test func anActionOfARunThatIsOverIsDroppedAndItsCompletionSaysSo() {
        let inbox = Inbox<Int>()
        let receiver = Receiver("child")
        let current = EffectRun()
        let over = EffectRun()
        over.cancel()
        let outcomes = LockedValue<[String]>([])
        func note(_ label: String) -> @Sendable (ProcessOutcome) -> Void {
            { outcome in
                let text =
                    switch outcome {
                    case .reduced: "reduced"
                    case .blocked: "blocked"
                    case .failed: "failed"
                    }
                outcomes.withLock { $0.append("\(label) \(text)") }
            }
        }
        _ = inbox.push(1, for: receiver)
        _ = inbox.push(2, for: receiver, guardedBy: over, completion: note("2"))
        _ = inbox.push(3, for: receiver, guardedBy: current, completion: note("3"))
        _ = inbox.push(4, for: receiver, completion: note("4"))
        #expect(drain(inbox).isEmpty)
        #expect(receiver.received == ["child:1", "child:3", "child:4"])
        #expect(outcomes.withLock { $0 } == ["2 blocked", "3 reduced", "4 reduced"])
    }

    @Test func anInboxReleasedWithEntriesPendingLetsGoOfTheirReceivers() {
        var inbox: Inbox<Int>? = Inbox<Int>()
        var receiver: Receiver? = Receiver("child")
        let weakReceiver = WeakRef(receiver!)
        _ = inbox?.push(1, for: receiver!)
        _ = inbox?.push(2, for: receiver!, guardedBy: EffectRun())
        receiver = nil
        #expect(weakReceiver.object != nil)
        inbox = nil
        #expect(weakReceiver.object == nil)
    }

    /// Counts the ``Tracked`` values of one test that are alive.
    private final class Census: @unchecked Sendable {
        // Safety: test-only; used on the test's thread, which runs the inbox's batches itself.
        var alive = 0
    }

    /// Counts itself in its census while alive, so that an action copied instead of moved, or lost,
    /// shows.
    private final class Tracked: Sendable {
        let value: Int
        let census: Census

        init(_ value: Int, in census: Census) {
            self.value = value
            self.census = census
            census.alive += 1
        }

        deinit {
            census.alive -= 1
        }
    }

    /// Takes ``Tracked`` actions and keeps only their values.
    private final class TrackedReceiver: InboxReceiver, @unchecked Sendable {
        // Safety: test-only; used on the test's thread, which runs the inbox's batches itself.
        var values: [Int] = []

        func handle(
            _ action: consuming InboxAction,
            entry: EntryContext,
            in turn: borrowing DrainTurn
        ) -> ProcessOutcome {
            values.append(action.handle(as: Tracked.self) { $0.value })
            return .reduced
        }
    }

    @Test func everyActionMovesOnceAsTheBufferGrows() {
        // A burst grows the actions' memory from 16 entries several times: each growth moves the actions
        // over, and the drain moves each out once. None is lost, copied or left behind.
        let census = Census()
        let inbox = Inbox<Tracked>()
        let receiver = TrackedReceiver()
        for value in 0..<1_000 {
            if value % 3 == 0 {
                _ = inbox.push(Tracked(value, in: census), for: receiver)
            } else {
                _ = inbox.push(Tracked(value, in: census))
            }
        }
        #expect(census.alive == 1_000)
        var rootValues: [Int] = []
        var batch = inbox.takeSpare()
        while inbox.take(&batch) {
            asDrain { inbox.run(&batch, in: $0, afterEach: {}, receive: { rootValues.append($0.value) }) }
        }
        #expect(rootValues == (0..<1_000).filter { $0 % 3 != 0 })
        #expect(receiver.values == (0..<1_000).filter { $0 % 3 == 0 })
        #expect(census.alive == 0)
    }

    @Test func anInboxReleasedWithActionsPendingDestroysThem() {
        let census = Census()
        var inbox: Inbox<Tracked>? = Inbox<Tracked>()
        let receiver = TrackedReceiver()
        for value in 0..<100 {
            _ = inbox?.push(Tracked(value, in: census))
            _ = inbox?.push(Tracked(value, in: census), for: receiver)
        }
        #expect(census.alive == 200)
        inbox = nil
        #expect(census.alive == 0)
        #expect(receiver.values.isEmpty)
    }
}
