import Foundation

/// A temperature reading with its unit.
struct Temperature: CustomStringConvertible {
    enum Unit {
        case celsius
        case fahrenheit
    }

    let value: Double
    let unit: Unit

    /// The reading in degrees Celsius.
    var celsius: Double {
        switch unit {
        case .celsius:
            return value
        case .fahrenheit:
            return (value - 32) * 5 / 9
        }
    }

    var description: String {
        String(format: "%.1f°C", celsius)
    }
}

protocol Thermometer {
    func read() -> Temperature
}

final class FakeThermometer: Thermometer {
    private var readings: [Temperature]

    init(readings: [Temperature]) {
        self.readings = readings
    }

    func read() -> Temperature {
        if readings.count > 1 {
            return readings.removeFirst()
        }
        return readings[0]
    }
}

func average(_ temps: [Temperature]) -> Double {
    guard !temps.isEmpty else { return 0 }
    return temps.map(\.celsius).reduce(0, +) / Double(temps.count)
}
