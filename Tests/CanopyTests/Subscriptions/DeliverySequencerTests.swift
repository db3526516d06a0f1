import Testing

@testable import Canopy

@Suite(.timeLimit(.minutes(1))) struct DeliverySequencerTests {
    @Test func admitsOnlyNewerSequences() {
        let sequencer = DeliverySequencer()
        // Each answer is taken first: `#expect` cannot take apart a call on a non-copyable value.
        let admitted = [1, 3, 2, 3, 4].map { sequencer.admit($0) }
        #expect(admitted == [true, true, false, false, true])
    }
}
