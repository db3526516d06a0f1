import Foundation

@testable import Canopy

/// `data` with one to four bytes removed, inserted or replaced, the new bytes drawn from `alphabet`: the
/// mutation the decoding fuzz tests feed their decoders.
func corrupt(_ data: Data, alphabet: String, using random: inout SplitMix64) -> Data {
    var bytes = [UInt8](data)
    let alphabet = Array(alphabet.utf8)
    for _ in 0..<(1 + random.next(below: 4)) {
        let position = bytes.isEmpty ? 0 : random.next(below: bytes.count)
        switch random.next(below: 3) {
        case 0 where !bytes.isEmpty: bytes.remove(at: position)
        case 1: bytes.insert(alphabet[random.next(below: alphabet.count)], at: position)
        default: if !bytes.isEmpty { bytes[position] = alphabet[random.next(below: alphabet.count)] }
        }
    }
    return Data(bytes)
}
