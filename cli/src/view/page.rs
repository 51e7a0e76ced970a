//! The page: one HTML file, the script and style bundled from `viewer/`
//! (see its README), served as they are or inlined into a report.

/// The page, with `<!--rsbag:style-->` and `<!--rsbag:script-->` where
/// the style and script go.
const TEMPLATE: &str = include_str!("assets/index.html");
/// The viewer's script, bundled by esbuild from `viewer/src`.
pub const SCRIPT: &str = include_str!("assets/viewer.js");
/// The viewer's style.
pub const STYLE: &str = include_str!("assets/viewer.css");

/// The page as the server serves it: the script and style as files of
/// their own; the page asks the server for the recording.
pub fn served() -> String {
    TEMPLATE
        .replace(
            "<!--rsbag:style-->",
            r#"<link rel="stylesheet" href="viewer.css">"#,
        )
        .replace(
            "<!--rsbag:script-->",
            r#"<script src="viewer.js"></script>"#,
        )
}

/// The page of a live view (`rsbag view --camera`): the served page,
/// told to ask for the camera (`api/live`) instead of a recording.
pub fn served_live() -> String {
    served().replace(r#"<div id="app">"#, r#"<div id="app" data-live="true">"#)
}

/// The page as one self-contained file: style, script and `report` (the
/// recording's document and the frames it shows, as JSON) inlined.
pub fn report(report: &serde_json::Value) -> String {
    let style = format!("<style>{}</style>", STYLE.replace("</style", r"<\/style"));
    let script = format!(
        "<script id=\"rsbag-report\" type=\"application/json\">{}</script>\n<script>{}</script>",
        inline_json(report),
        SCRIPT.replace("</script", r"<\/script")
    );
    TEMPLATE
        .replace("<!--rsbag:style-->", &style)
        .replace("<!--rsbag:script-->", &script)
}

/// JSON that can sit inside a `<script>` element: no `</script>` or
/// `<!--` can end it early (`<` is written as `\u003c`, which JSON reads
/// back as `<`).
fn inline_json(value: &serde_json::Value) -> String {
    value.to_string().replace('<', r"\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inlined_json_cannot_close_its_script_element() {
        let value = serde_json::json!({ "name": "</script><script>alert(1)</script>" });
        let text = inline_json(&value);
        assert!(!text.contains('<'));
        let back: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(back, value);
    }
}
