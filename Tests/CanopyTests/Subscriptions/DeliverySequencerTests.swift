import Testing

@testable import Canopy

@Suite(.timeLimit(.minutes(1))) struct DeliverySequencerTests {
    @Test func admitsOnlyNewerSequences() {
        let sequencer = DeliverySequencer()
        #expect(sequencer.admit(1))
        #expect(sequencer.admit(3))
        #expect(!sequencer.admit(2))
        #expect(!sequencer.admit(3))
        #expect(sequencer.admit(4))
    }
}
