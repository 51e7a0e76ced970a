//! ROS md5sums of message definitions, computed the way genmsg
//! (`compute_md5_text`) does.
//!
//! The md5 text of a message is, with comments and blank lines dropped:
//! its constants first, as `type name=value`, then its fields, as
//! `type name`, joined with `\n`. A field of a message type (or an array
//! of one) is written as `md5 name`, the md5 of the nested type taking the
//! place of the type and of any array suffix. `Header` means
//! `std_msgs/Header`; a type without a package is in the package of the
//! message that uses it.
//!
//! The nested types are read from the full definition (the text of a
//! connection header's `message_definition`): after the main message, each
//! one is a block that starts with a line of `=` and a `MSG: pkg/Type`
//! line.

use ::md5::{Digest, Md5};

use crate::{Error, Result};

/// The ROS builtin types: these are written as they are in the md5 text.
pub(super) const BUILTINS: &[&str] = &[
    "bool", "byte", "char", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
    "uint64", "float32", "float64", "string", "time", "duration",
];

/// Nested types deeper than this are taken for a cycle.
pub(super) const MAX_DEPTH: usize = 32;

/// The md5sum (32 lowercase hex digits) of the message `type_name`
/// (`pkg/Type`), whose full definition is `definition`.
///
/// ```
/// let def = "string key # what to label this value when viewing\n\
///            string value # a value to track over time\n";
/// let md5 = rsbag::msg::md5sum("diagnostic_msgs/KeyValue", def)?;
/// assert_eq!(md5, "cf57fdc6617a881a88c16e768132149c");
/// # Ok::<(), rsbag::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::InvalidArgument`] if a line is neither a field, a constant nor
/// a comment, if a nested type has no `MSG:` block, or if nested types
/// form a cycle.
pub fn md5sum(type_name: &str, definition: &str) -> Result<String> {
    md5_text(type_name, definition).map(|text| hex_md5(&text))
}

/// The text whose md5 is the md5sum of `type_name` (see [`md5sum`]).
///
/// # Errors
///
/// As [`md5sum`].
pub(crate) fn md5_text(type_name: &str, definition: &str) -> Result<String> {
    let blocks = split_blocks(type_name, definition)?;
    text_of(&blocks, type_name, 0)
}

/// One message of a full definition: its name and its lines.
pub(super) struct Block<'d> {
    pub(super) name: &'d str,
    pub(super) lines: Vec<&'d str>,
}

/// One meaningful line of a message definition.
pub(super) enum Item<'d> {
    /// `type name=value`.
    Constant {
        ty: &'d str,
        name: &'d str,
        value: &'d str,
    },
    /// `type name`.
    Field { ty: &'d str, name: &'d str },
}

pub(super) fn invalid(type_name: &str, reason: impl std::fmt::Display) -> Error {
    Error::InvalidArgument(format!("message definition of {type_name}: {reason}"))
}

/// Whether `line` separates two messages of a full definition.
fn is_separator(line: &str) -> bool {
    let line = line.trim();
    !line.is_empty() && line.bytes().all(|b| b == b'=')
}

/// Split a full definition into the main message and its `MSG:` blocks.
pub(super) fn split_blocks<'d>(type_name: &'d str, definition: &'d str) -> Result<Vec<Block<'d>>> {
    let mut blocks = vec![Block {
        name: type_name,
        lines: Vec::new(),
    }];
    let mut lines = definition.lines();
    while let Some(line) = lines.next() {
        if is_separator(line) {
            let name = lines
                .next()
                .and_then(|l| l.trim().strip_prefix("MSG:"))
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .ok_or_else(|| {
                    invalid(
                        type_name,
                        "a line of `=` is not followed by `MSG: pkg/Type`",
                    )
                })?;
            blocks.push(Block {
                name,
                lines: Vec::new(),
            });
        } else if let Some(block) = blocks.last_mut() {
            block.lines.push(line);
        }
    }
    Ok(blocks)
}

/// Parse one line; `None` for comments and blank lines.
pub(super) fn parse_line(line: &str) -> Option<std::result::Result<Item<'_>, String>> {
    let clean = line.split('#').next().unwrap_or("").trim();
    if clean.is_empty() {
        return None;
    }
    Some(if clean.contains('=') {
        parse_constant(line.trim(), clean)
    } else {
        parse_field(clean)
    })
}

fn parse_field(clean: &str) -> std::result::Result<Item<'_>, String> {
    let mut words = clean.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some(ty), Some(name), None) => Ok(Item::Field { ty, name }),
        _ => Err(format!("cannot parse the line {clean:?}")),
    }
}

/// A constant. The value of a `string` constant is everything after the
/// `=` (a `#` in it is not a comment); other values end at a comment.
fn parse_constant<'d>(line: &'d str, clean: &'d str) -> std::result::Result<Item<'d>, String> {
    let bad = || format!("cannot parse the constant {line:?}");
    let (ty, rest) = clean.split_once(char::is_whitespace).ok_or_else(bad)?;
    let (name, value) = if ty == "string" {
        let (_, rest) = line.split_once(char::is_whitespace).ok_or_else(bad)?;
        rest.split_once('=').ok_or_else(bad)?
    } else {
        rest.split_once('=').ok_or_else(bad)?
    };
    let (name, value) = (name.trim(), value.trim());
    if name.is_empty() || name.contains(char::is_whitespace) {
        return Err(bad());
    }
    Ok(Item::Constant { ty, name, value })
}

/// The md5 text of the block `name`.
fn text_of(blocks: &[Block<'_>], name: &str, depth: usize) -> Result<String> {
    if depth > MAX_DEPTH {
        return Err(invalid(blocks[0].name, "nested types form a cycle"));
    }
    let block = blocks
        .iter()
        .find(|b| b.name == name)
        .ok_or_else(|| invalid(blocks[0].name, format_args!("no `MSG: {name}` block")))?;
    let items = block
        .lines
        .iter()
        .filter_map(|l| parse_line(l))
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|reason| invalid(name, reason))?;
    let mut out = Vec::with_capacity(items.len());
    for item in &items {
        if let Item::Constant { ty, name, value } = item {
            out.push(format!("{ty} {name}={value}"));
        }
    }
    for item in &items {
        if let Item::Field { ty, name: field } = item {
            out.push(field_text(blocks, package_of(name), ty, field, depth)?);
        }
    }
    Ok(out.join("\n"))
}

/// The md5 text line of one field.
fn field_text(
    blocks: &[Block<'_>],
    pkg: &str,
    ty: &str,
    field: &str,
    depth: usize,
) -> Result<String> {
    let base = ty.split('[').next().unwrap_or(ty);
    if BUILTINS.contains(&base) {
        return Ok(format!("{ty} {field}"));
    }
    let full = if base == "Header" {
        "std_msgs/Header".to_owned()
    } else if base.contains('/') {
        base.to_owned()
    } else {
        format!("{pkg}/{base}")
    };
    let nested = text_of(blocks, &full, depth + 1)?;
    Ok(format!("{} {field}", hex_md5(&nested)))
}

/// The package of `pkg/Type` (empty when there is none).
pub(super) fn package_of(type_name: &str) -> &str {
    type_name.split_once('/').map_or("", |(pkg, _)| pkg)
}

/// The md5 of `text` as 32 lowercase hex digits.
fn hex_md5(text: &str) -> String {
    Md5::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// sensor_msgs/PointField as in librealsense v2.55.1
    /// (third-party/realsense-file/rosbag/msgs/sensor_msgs/PointField.h,
    /// MD5Sum 268eacb2962780ceac86cbd17e328150): constants before fields.
    const POINT_FIELD: &str = concat!(
        "# This message holds the description of one point entry in the\n",
        "# PointCloud2 message format.\n",
        "uint8 INT8    = 1\n",
        "uint8 UINT8   = 2\n",
        "uint8 INT16   = 3\n",
        "uint8 UINT16  = 4\n",
        "uint8 INT32   = 5\n",
        "uint8 UINT32  = 6\n",
        "uint8 FLOAT32 = 7\n",
        "uint8 FLOAT64 = 8\n",
        "\n",
        "string name      # Name of field\n",
        "uint32 offset    # Offset from start of point struct\n",
        "uint8  datatype  # Datatype enumeration, see above\n",
        "uint32 count     # How many elements in the field\n",
    );

    /// sensor_msgs/NavSatStatus (same source, MD5Sum
    /// 331cdbddfa4bc96ffc3b9ad98900a54c): constants after a field, a
    /// negative value with extra spaces.
    const NAV_SAT_STATUS: &str = concat!(
        "# Navigation Satellite fix status for any Global Navigation Satellite System\n",
        "\n",
        "int8 STATUS_NO_FIX =  -1        # unable to fix position\n",
        "int8 STATUS_FIX =      0        # unaugmented fix\n",
        "int8 STATUS_SBAS_FIX = 1        # with satellite-based augmentation\n",
        "int8 STATUS_GBAS_FIX = 2        # with ground-based augmentation\n",
        "\n",
        "int8 status\n",
        "\n",
        "uint16 SERVICE_GPS =     1\n",
        "uint16 SERVICE_GLONASS = 2\n",
        "uint16 SERVICE_COMPASS = 4      # includes BeiDou.\n",
        "uint16 SERVICE_GALILEO = 8\n",
        "\n",
        "uint16 service\n",
    );

    /// std_msgs/Float32MultiArray (same source, MD5Sum
    /// 6a40e0ffa6a17a503ac3f8616991b1f6; most comments left out): an array
    /// of a nested type, named without its package inside a `MSG:` block.
    const FLOAT32_MULTI_ARRAY: &str = concat!(
        "MultiArrayLayout  layout        # specification of data layout\n",
        "float32[]         data          # array of data\n",
        "\n",
        "\n",
        "================================================================================\n",
        "MSG: std_msgs/MultiArrayLayout\n",
        "MultiArrayDimension[] dim # Array of dimension properties\n",
        "uint32 data_offset        # padding elements at front of data\n",
        "# dim[0].label  = \"height\"\n",
        "\n",
        "================================================================================\n",
        "MSG: std_msgs/MultiArrayDimension\n",
        "string label   # label of given dimension\n",
        "uint32 size    # size of given dimension (in type units)\n",
        "uint32 stride  # stride of given dimension\n",
    );

    #[test]
    fn constants_come_first() {
        let text = md5_text("sensor_msgs/NavSatStatus", NAV_SAT_STATUS).unwrap();
        assert!(
            text.starts_with("int8 STATUS_NO_FIX=-1\nint8 STATUS_FIX=0\n"),
            "{text}"
        );
        assert!(
            text.ends_with("uint16 SERVICE_GALILEO=8\nint8 status\nuint16 service"),
            "{text}"
        );
        assert_eq!(
            md5sum("sensor_msgs/NavSatStatus", NAV_SAT_STATUS).unwrap(),
            "331cdbddfa4bc96ffc3b9ad98900a54c"
        );
        assert_eq!(
            md5sum("sensor_msgs/PointField", POINT_FIELD).unwrap(),
            "268eacb2962780ceac86cbd17e328150"
        );
    }

    #[test]
    fn nested_arrays_use_the_md5_without_suffix() {
        let text = md5_text("std_msgs/Float32MultiArray", FLOAT32_MULTI_ARRAY).unwrap();
        assert!(text.ends_with(" layout\nfloat32[] data"), "{text}");
        assert_eq!(
            md5sum("std_msgs/Float32MultiArray", FLOAT32_MULTI_ARRAY).unwrap(),
            "6a40e0ffa6a17a503ac3f8616991b1f6"
        );
    }

    #[test]
    fn string_constants_keep_hashes() {
        let text = md5_text("a/B", "string S = x # y \nint32 n # c\n").unwrap();
        assert_eq!(text, "string S=x # y\nint32 n");
    }

    #[test]
    fn bad_definitions_are_errors() {
        assert!(md5sum("a/B", "uint32\n").is_err());
        assert!(md5sum("a/B", "uint32 a b\n").is_err());
        assert!(md5sum("a/B", "C c\n").is_err(), "missing MSG block");
        assert!(md5sum("a/B", "uint32 a\n=====\nnot a msg line\n").is_err());
        let cycle = "C c\n====\nMSG: a/C\nB b\n====\nMSG: a/B\nC c\n";
        assert!(md5sum("a/B", cycle).is_err());
    }
}
