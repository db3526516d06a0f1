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

        func receiveAction(at action: UnsafeMutableRawPointer, entry: EntryContext) -> ProcessOutcome {
            received.append("\(name):\(action.assumingMemoryBound(to: Int.self).move())")
            return .reduced
        }

        var holdsItsNode: Bool { true }
    }

    /// Runs everything pending, as a drain does; returns the root's actions in order.
    private func drain(_ inbox: Inbox<Int>) -> [Int] {
        var rootActions: [Int] = []
        var batch = inbox.takeSpare()
        while inbox.take(&batch) {
            inbox.run(&batch, afterEach: {}, receive: { rootActions.append($0) })
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
}
