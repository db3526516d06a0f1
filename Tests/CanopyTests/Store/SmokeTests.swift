import Testing

@testable import Canopy

@Suite struct SmokeTests {
    @Test func rootAndChildReduce() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let child = root.with("") { text, action in text += "\(action)" }
        root.dispatch(1)
        child.dispatch(2)
        let state = await child.send(3)
        #expect(state == (6, "23"))
        #expect(await root.state == 6)
    }
}
