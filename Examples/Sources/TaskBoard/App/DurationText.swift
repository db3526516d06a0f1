import Foundation

/// Reading and writing short durations: `90`, `90s`, `1.5s`, `5m`, `2h`.
enum DurationText {
    /// The longest delay a reminder takes: a week. TaskBoard runs for minutes or hours, and a longer
    /// delay would only be a number too large to wait on.
    static let longest: Double = 7 * 24 * 3600

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

    /// `0.5s`, `4s`, `2m`, `1m30s`; a duration too large for whole seconds is written as a number
    /// (`1e+308s`).
    static func text(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e15 else { return "\(seconds)s" }
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
