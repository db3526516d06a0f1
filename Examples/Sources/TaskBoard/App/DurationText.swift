import Foundation

/// Reading and writing short durations: `90`, `90s`, `1.5s`, `5m`, `2h`.
enum DurationText {
    /// Seconds for `text`, or `nil` when it is not a duration.
    static func seconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600]
        var number = Substring(text.lowercased())
        var unit = 1.0
        if let last = number.last, let scale = units[last] {
            unit = scale
            number = number.dropLast()
        }
        guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
        return value * unit
    }

    /// `0.5s`, `4s`, `2m`, `1m30s`.
    static func text(_ seconds: Double) -> String {
        if seconds < 60 {
            let rounded = (seconds * 10).rounded() / 10
            return rounded == rounded.rounded() ? "\(Int(rounded))s" : "\(rounded)s"
        }
        let whole = Int(seconds.rounded())
        let minutes = whole / 60
        let rest = whole % 60
        return rest == 0 ? "\(minutes)m" : "\(minutes)m\(rest)s"
    }
}
