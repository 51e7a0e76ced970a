//! Any ROS1 message as its ROS 2 (CDR) form, driven by its full
//! definition (a `.bag` connection's `message_definition`): how a robot
//! bag's other topics (a lidar's scans, `/tf`, odometry) reach a ROS 2
//! bag, as rosbags' `ros1_to_cdr` and the ROS 1 bridge convert them.
//!
//! The ROS 2 form of a ROS1 type: `pkg/Type` is `pkg/msg/Type`; `time`
//! and `duration` are `builtin_interfaces/Time` and `Duration` (the same
//! two 32-bit numbers); `std_msgs/Header` loses its `seq`; a message
//! without fields holds one `uint8` (ROS 2 has no empty structures).
//!
//! CDR (little-endian, XCDR1): a 4-byte encapsulation header, then each
//! number aligned to its size (up to 8) from the header's end; strings as
//! a `u32` length counting a closing NUL, the bytes and the NUL; sequences
//! as a `u32` count then the elements; fixed arrays as the bare elements.
//!
//! ```
//! use rsbag::msg::Ros1ToCdr;
//! let def = "string data\n";
//! let convert = Ros1ToCdr::new("std_msgs/String", def)?;
//! assert_eq!(convert.ros2_type(), "std_msgs/msg/String");
//! let cdr = convert.convert(&[2, 0, 0, 0, b'h', b'i'])?;
//! assert_eq!(cdr, [0, 1, 0, 0, 3, 0, 0, 0, b'h', b'i', 0]);
//! # Ok::<(), rsbag::Error>(())
//! ```

use super::md5::{invalid, package_of, parse_line, split_blocks, Block, Item, MAX_DEPTH};
use crate::{Error, Result};

/// Elements of a zero-size ROS1 type (an empty message) a sequence may
/// claim: more is taken for damage, not data.
const MAX_EMPTY_ELEMENTS: usize = 1 << 16;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scalar {
    /// A number (or `bool`, `byte`, `char`) of this many bytes.
    Number(usize),
    String,
    /// `time` or `duration`: two 32-bit numbers.
    Stamp,
    /// A message, by its index in [`Ros1ToCdr::messages`].
    Message(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    One,
    Fixed(usize),
    Sequence,
}

#[derive(Debug, Clone)]
struct Field {
    scalar: Scalar,
    shape: Shape,
    /// In ROS1 only (`std_msgs/Header`'s `seq`): read, not written.
    dropped: bool,
}

#[derive(Debug, Clone)]
struct Message {
    name: String,
    fields: Vec<Field>,
    /// Compiled (not still in the making: a type that holds itself).
    done: bool,
}

/// A ROS1 message type compiled from its full definition, to convert its
/// messages to CDR.
#[derive(Debug, Clone)]
pub struct Ros1ToCdr {
    ros2_type: String,
    ros2_definition: String,
    messages: Vec<Message>,
}

impl Ros1ToCdr {
    /// Compile `type_name` (`pkg/Type`) from its full definition.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for a definition that does not parse, a
    /// nested type without its `MSG:` block, or nested types in a cycle.
    pub fn new(type_name: &str, definition: &str) -> Result<Ros1ToCdr> {
        let blocks = split_blocks(type_name, definition)?;
        let mut compiled = Ros1ToCdr {
            ros2_type: ros2_name(type_name),
            ros2_definition: String::new(),
            messages: Vec::new(),
        };
        compiled.compile(&blocks, type_name, 0)?;
        compiled.ros2_definition = ros2_definition(&blocks, &compiled.messages);
        Ok(compiled)
    }

    /// The ROS 2 name of the type: `sensor_msgs/msg/LaserScan`.
    pub fn ros2_type(&self) -> &str {
        &self.ros2_type
    }

    /// The ROS 2 full definition (rosbag2's `ros2msg` text).
    pub fn ros2_definition(&self) -> &str {
        &self.ros2_definition
    }

    /// The CDR form of one ROS1-serialized message.
    ///
    /// # Errors
    ///
    /// [`Error::Decode`] when the message is shorter than its type says or
    /// a length in it is beyond its bytes.
    pub fn convert(&self, ros1: &[u8]) -> Result<Vec<u8>> {
        let mut walk = Walk {
            input: ros1,
            at: 0,
            out: Vec::with_capacity(ros1.len() + 64),
        };
        walk.out.extend_from_slice(&[0, 1, 0, 0]);
        walk.message(self, 0)?;
        Ok(walk.out)
    }

    /// Compile message `name`; its index.
    fn compile(&mut self, blocks: &[Block<'_>], name: &str, depth: usize) -> Result<usize> {
        if let Some(i) = self.messages.iter().position(|m| m.name == name) {
            // A message still being compiled holds itself.
            return match self.messages[i].done {
                true => Ok(i),
                false => Err(invalid(blocks[0].name, "nested types form a cycle")),
            };
        }
        if depth > MAX_DEPTH {
            return Err(invalid(blocks[0].name, "nested types form a cycle"));
        }
        let block = blocks
            .iter()
            .find(|b| b.name == name)
            .ok_or_else(|| invalid(blocks[0].name, format_args!("no `MSG: {name}` block")))?;
        let index = self.messages.len();
        self.messages.push(Message {
            name: name.to_owned(),
            fields: Vec::new(),
            done: false,
        });
        let mut fields = Vec::new();
        for line in &block.lines {
            let Some(item) = parse_line(line) else {
                continue;
            };
            let Item::Field { ty, name: field } = item.map_err(|r| invalid(name, r))? else {
                continue;
            };
            let (base, shape) = shape_of(ty).ok_or_else(|| invalid(name, format!("type {ty}")))?;
            let scalar = match base {
                "bool" | "byte" | "char" | "int8" | "uint8" => Scalar::Number(1),
                "int16" | "uint16" => Scalar::Number(2),
                "int32" | "uint32" | "float32" => Scalar::Number(4),
                "int64" | "uint64" | "float64" => Scalar::Number(8),
                "string" => Scalar::String,
                "time" | "duration" => Scalar::Stamp,
                _ => Scalar::Message(self.compile(
                    blocks,
                    &full_name(package_of(name), base),
                    depth + 1,
                )?),
            };
            fields.push(Field {
                scalar,
                shape,
                dropped: name == "std_msgs/Header" && field == "seq",
            });
        }
        self.messages[index].fields = fields;
        self.messages[index].done = true;
        Ok(index)
    }
}

/// `float32[]` → (`float32`, sequence); `float64[9]` → fixed 9.
fn shape_of(ty: &str) -> Option<(&str, Shape)> {
    let Some((base, rest)) = ty.split_once('[') else {
        return Some((ty, Shape::One));
    };
    let n = rest.strip_suffix(']')?;
    if n.is_empty() {
        return Some((base, Shape::Sequence));
    }
    n.parse().ok().map(|n| (base, Shape::Fixed(n)))
}

/// A nested type's full name: `Header` is `std_msgs/Header`, a bare name
/// is in the package of the message using it.
fn full_name(pkg: &str, base: &str) -> String {
    if base == "Header" {
        "std_msgs/Header".to_owned()
    } else if base.contains('/') {
        base.to_owned()
    } else {
        format!("{pkg}/{base}")
    }
}

/// `pkg/Type` → `pkg/msg/Type`.
fn ros2_name(type_name: &str) -> String {
    match type_name.split_once('/') {
        Some((pkg, name)) if !name.contains('/') => format!("{pkg}/msg/{name}"),
        _ => type_name.to_owned(),
    }
}

/// The ROS 2 full definition of the compiled messages: each block's
/// lines with `time`/`duration` as `builtin_interfaces/…`, without
/// `Header`'s `seq`, and the `builtin_interfaces` blocks they use.
fn ros2_definition(blocks: &[Block<'_>], messages: &[Message]) -> String {
    let mut text = String::new();
    let mut stamps = Vec::new();
    for message in messages {
        let Some(block) = blocks.iter().find(|b| b.name == message.name) else {
            continue;
        };
        if !text.is_empty() {
            text.push_str(&format!("{}\nMSG: {}\n", "=".repeat(80), message.name));
        }
        for line in &block.lines {
            let mut words = line.split_whitespace();
            let (ty, field) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
            let base = ty.split('[').next().unwrap_or(ty);
            if message.name == "std_msgs/Header" && field == "seq" {
                continue;
            }
            let line = match base {
                "time" | "duration" if !line.contains('=') => {
                    let name = if base == "time" { "Time" } else { "Duration" };
                    if !stamps.contains(&name) {
                        stamps.push(name);
                    }
                    line.replacen(base, &format!("builtin_interfaces/{name}"), 1)
                }
                _ => (*line).to_owned(),
            };
            text.push_str(&line);
            text.push('\n');
        }
    }
    for name in stamps {
        text.push_str(&format!(
            "{}\nMSG: builtin_interfaces/{name}\nint32 sec\nuint32 nanosec\n",
            "=".repeat(80)
        ));
    }
    text
}

/// One conversion: reading the ROS1 bytes, writing the CDR ones.
struct Walk<'a> {
    input: &'a [u8],
    at: usize,
    out: Vec<u8>,
}

impl<'a> Walk<'a> {
    fn message(&mut self, types: &Ros1ToCdr, index: usize) -> Result<()> {
        let message = &types.messages[index];
        if message.fields.is_empty() {
            self.out.push(0);
        }
        for field in &message.fields {
            match field.shape {
                Shape::One => self.scalar(types, field, 1)?,
                Shape::Fixed(n) => self.scalar(types, field, n)?,
                Shape::Sequence => {
                    let n = self.take_u32()? as usize;
                    let min = ros1_min_size(types, field.scalar);
                    let fits = match min {
                        0 => n <= MAX_EMPTY_ELEMENTS,
                        _ => n <= (self.input.len() - self.at) / min,
                    };
                    if !fits {
                        return Err(self.short(&message.name));
                    }
                    self.align(4);
                    self.out.extend_from_slice(&(n as u32).to_le_bytes());
                    self.scalar(types, field, n)?;
                }
            }
        }
        Ok(())
    }

    /// `n` values of `field`'s scalar type.
    fn scalar(&mut self, types: &Ros1ToCdr, field: &Field, n: usize) -> Result<()> {
        match field.scalar {
            Scalar::Number(size) => {
                let bytes = self.take(size * n)?;
                if !field.dropped {
                    if n > 0 {
                        self.align(size);
                    }
                    self.out.extend_from_slice(bytes);
                }
            }
            Scalar::Stamp => {
                let bytes = self.take(8 * n)?;
                if n > 0 {
                    self.align(4);
                }
                self.out.extend_from_slice(bytes);
            }
            Scalar::String => {
                for _ in 0..n {
                    let len = self.take_u32()? as usize;
                    let text = self.take(len)?;
                    self.align(4);
                    self.out.extend_from_slice(&(len as u32 + 1).to_le_bytes());
                    self.out.extend_from_slice(text);
                    self.out.push(0);
                }
            }
            Scalar::Message(index) => {
                for _ in 0..n {
                    self.message(types, index)?;
                }
            }
        }
        Ok(())
    }

    fn align(&mut self, size: usize) {
        let offset = self.out.len() - 4;
        let pad = (size - offset % size) % size;
        self.out.resize(self.out.len() + pad, 0);
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let input = self.input;
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= input.len())
            .ok_or_else(|| Error::decode("ROS1 message", format!("cut off at byte {}", self.at)))?;
        let bytes = &input[self.at..end];
        self.at = end;
        Ok(bytes)
    }

    fn take_u32(&mut self) -> Result<u32> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn short(&self, message: &str) -> Error {
        Error::decode(
            "ROS1 message",
            format!(
                "{message}: a sequence at byte {} is longer than the message",
                self.at
            ),
        )
    }
}

/// The fewest ROS1 bytes one value of `scalar` takes.
/// (Compiled types hold no cycle: the recursion ends.)
fn ros1_min_size(types: &Ros1ToCdr, scalar: Scalar) -> usize {
    match scalar {
        Scalar::Number(n) => n,
        Scalar::String => 4,
        Scalar::Stamp => 8,
        Scalar::Message(i) => types.messages[i]
            .fields
            .iter()
            .map(|f| match f.shape {
                Shape::One => ros1_min_size(types, f.scalar),
                Shape::Fixed(n) => n * ros1_min_size(types, f.scalar),
                Shape::Sequence => 4,
            })
            .sum(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "uint32 seq\ntime stamp\nstring frame_id\n";

    fn stamped() -> String {
        format!(
            "Header header\nfloat64[] values\nuint8 flag\nfloat32[2] pair\n{}\nMSG: std_msgs/Header\n{HEADER}",
            "=".repeat(80)
        )
    }

    #[test]
    fn a_header_loses_its_seq_and_numbers_are_aligned() {
        let c = Ros1ToCdr::new("pkg/Stamped", &stamped()).expect("compile");
        let mut ros1 = Vec::new();
        ros1.extend_from_slice(&7u32.to_le_bytes()); // seq
        ros1.extend_from_slice(&5u32.to_le_bytes()); // sec
        ros1.extend_from_slice(&6u32.to_le_bytes()); // nsec
        ros1.extend_from_slice(&1u32.to_le_bytes());
        ros1.push(b'f');
        ros1.extend_from_slice(&1u32.to_le_bytes());
        ros1.extend_from_slice(&2.5f64.to_le_bytes());
        ros1.push(9);
        ros1.extend_from_slice(&1f32.to_le_bytes());
        ros1.extend_from_slice(&2f32.to_le_bytes());
        let cdr = c.convert(&ros1).expect("convert");
        let mut want = vec![0, 1, 0, 0];
        want.extend_from_slice(&5u32.to_le_bytes());
        want.extend_from_slice(&6u32.to_le_bytes());
        want.extend_from_slice(&2u32.to_le_bytes());
        want.extend_from_slice(b"f\0");
        want.extend_from_slice(&[0, 0]); // to 4
        want.extend_from_slice(&1u32.to_le_bytes());
        want.extend_from_slice(&[0, 0, 0, 0]); // to 8
        want.extend_from_slice(&2.5f64.to_le_bytes());
        want.push(9);
        want.extend_from_slice(&[0, 0, 0]);
        want.extend_from_slice(&1f32.to_le_bytes());
        want.extend_from_slice(&2f32.to_le_bytes());
        assert_eq!(cdr, want);
        assert!(!c.ros2_definition().contains("seq"));
        assert!(c
            .ros2_definition()
            .contains("builtin_interfaces/Time stamp"));
        assert!(c.ros2_definition().contains("MSG: builtin_interfaces/Time"));
    }

    #[test]
    fn a_cut_or_lying_message_is_an_error() {
        let c = Ros1ToCdr::new("pkg/Stamped", &stamped()).expect("compile");
        assert!(c.convert(&[1, 2, 3]).is_err());
        let mut ros1 = vec![0u8; 12];
        ros1.extend_from_slice(&0u32.to_le_bytes());
        ros1.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(c.convert(&ros1).is_err());
    }

    #[test]
    fn every_cut_or_flipped_byte_is_an_error_or_a_message_never_a_panic() {
        let c = Ros1ToCdr::new("pkg/Stamped", &stamped()).expect("compile");
        let mut ros1 = vec![0u8; 12];
        ros1.extend_from_slice(&3u32.to_le_bytes());
        ros1.extend_from_slice(b"abc");
        ros1.extend_from_slice(&2u32.to_le_bytes());
        ros1.extend_from_slice(&[0u8; 16]);
        ros1.extend_from_slice(&[1u8; 9]);
        assert!(c.convert(&ros1).is_ok());
        for cut in 0..ros1.len() {
            assert!(c.convert(&ros1[..cut]).is_err(), "cut at {cut}");
        }
        for at in 0..ros1.len() {
            for value in [0x00, 0x7f, 0xff] {
                let mut flipped = ros1.clone();
                flipped[at] = value;
                let _ = c.convert(&flipped);
            }
        }
    }

    #[test]
    fn a_missing_nested_type_or_a_cycle_is_an_error() {
        assert!(Ros1ToCdr::new("pkg/A", "Other other\n").is_err());
        let cycle = format!("B b\n{}\nMSG: pkg/B\nA a\n", "=".repeat(80));
        assert!(Ros1ToCdr::new("pkg/A", &cycle).is_err());
    }
}
