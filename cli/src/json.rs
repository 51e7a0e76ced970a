//! JSON output that matches what Python's `json.dumps` prints, so that
//! rsbag's output and librealsense's (through pyrealsense2) compare as text.

/// A float as Python's `repr` prints it: shortest round-trip digits,
/// `.0` on whole numbers, exponent form below 1e-4 and from 1e16.
pub fn python_float(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        };
    }
    let magnitude = v.abs();
    if magnitude != 0.0 && !(1e-4..1e16).contains(&magnitude) {
        // Rust prints `1.5e-5`; Python prints `1.5e-05`.
        let text = format!("{v:e}");
        let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
        let (sign, digits) = match exponent.strip_prefix('-') {
            Some(d) => ('-', d),
            None => ('+', exponent),
        };
        return format!("{mantissa}e{sign}{digits:0>2}");
    }
    let text = format!("{v}");
    if text.contains('.') {
        text
    } else {
        format!("{text}.0")
    }
}

/// A JSON string literal.
pub fn string(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}

#[cfg(test)]
mod tests {
    use super::python_float;

    #[test]
    fn floats_print_as_python_does() {
        assert_eq!(python_float(0.0), "0.0");
        assert_eq!(python_float(33.300000000000004), "33.300000000000004");
        assert_eq!(python_float(66.60000000000001), "66.60000000000001");
        assert_eq!(python_float(1700000000123.456), "1700000000123.456");
        assert_eq!(python_float(1e16), "1e+16");
        assert_eq!(python_float(1.5e-5), "1.5e-05");
        assert_eq!(python_float(-2.0), "-2.0");
    }
}
