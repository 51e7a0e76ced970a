//! # rsbag-ros2
//!
//! ROS 2 for rsbag through rcl's C API, opened at run time from the user's
//! own ROS 2 with `libloading`, so nothing of ROS 2 is needed to build
//! rsbag. rcl, the RMW implementation and the message type supports are
//! found as a sourced install exports them (`LD_LIBRARY_PATH`,
//! `AMENT_PREFIX_PATH`, `RMW_IMPLEMENTATION`), or under
//! `RSBAG_ROS2=PREFIX`.
//!
//! Messages travel serialized, as the CDR rsbag writes and reads
//! (`rcl_publish_serialized_message`, `rcl_take_serialized_message`), so
//! any RMW works and no message type is compiled in: a type is only named,
//! and its package's type support library is looked up when a publisher
//! or subscription of it is made.
//!
//! ```no_run
//! use rsbag_ros2::{Node, Qos};
//! let node = Node::new("rsbag_play", "/")?;
//! let clock = node.publisher("/clock", "rosgraph_msgs/msg/Clock", Qos::clock())?;
//! clock.publish(&[0, 1, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0])?;
//! # Ok::<(), rsbag_ros2::Error>(())
//! ```

#![deny(missing_docs, missing_debug_implementations)]

mod api;
mod node;

pub use api::prefix_library_path;
pub use node::{Node, Publisher, Subscription, WaitSet};

use std::path::PathBuf;

/// What can go wrong with ROS 2.
#[derive(Debug)]
pub enum Error {
    /// No ROS 2 where it is looked for.
    NotInstalled(String),
    /// A library could not be used.
    Load {
        /// The library asked for.
        path: PathBuf,
        /// Why it could not be used.
        reason: String,
    },
    /// A message type whose type support is not installed.
    MissingType {
        /// The type (`tf2_msgs/msg/TFMessage`).
        type_name: String,
        /// Why its type support could not be used.
        reason: String,
    },
    /// rcl refused a call.
    Rcl {
        /// What was asked.
        what: String,
        /// rcl's message.
        message: String,
    },
    /// An argument rcl cannot take (a name with a NUL).
    InvalidArgument(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::NotInstalled(reason) => write!(
                f,
                "ROS 2 is not available: source your ROS 2 install first \
                 (`source /opt/ros/<distro>/setup.bash`), or set RSBAG_ROS2 to its prefix \
                 (the directory holding lib/librcl.so); without one, \
                 `pip install ros-rclpy ros-rmw-fastrtps-cpp ros-sensor-msgs ros-rosgraph-msgs` \
                 into a virtual environment gives a ROS 2 whose prefix is the environment's \
                 ({reason})"
            ),
            Error::Load { path, reason } => {
                write!(f, "cannot use ROS 2's {}: {reason}", path.display())
            }
            Error::MissingType { type_name, reason } => {
                let package = type_name.split('/').next().unwrap_or(type_name);
                write!(
                    f,
                    "ROS 2 message type {type_name} is not installed (install package \
                     {package}, e.g. ros-<distro>-{}): {reason}",
                    package.replace('_', "-")
                )
            }
            Error::Rcl { what, message } => write!(f, "ROS 2: {what}: {message}"),
            Error::InvalidArgument(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {}

/// A `Result` of this crate.
pub type Result<T> = std::result::Result<T, Error>;

/// A topic's quality of service (history keep-last).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Qos {
    /// Reliable (else best effort).
    pub reliable: bool,
    /// Transient local: late subscribers get the last messages (else
    /// volatile).
    pub transient_local: bool,
    /// How many messages are kept.
    pub depth: usize,
}

impl Qos {
    /// ROS 2's `SensorDataQoS`: best effort, volatile, the last 5.
    pub fn sensor_data() -> Qos {
        Qos {
            reliable: false,
            transient_local: false,
            depth: 5,
        }
    }

    /// Reliable and volatile, the last 10 (rclcpp's and the RealSense
    /// wrapper's default).
    pub fn reliable() -> Qos {
        Qos {
            reliable: true,
            transient_local: false,
            depth: 10,
        }
    }

    /// What a latched topic (`/tf_static`) needs: reliable, transient
    /// local, the last one.
    pub fn latched() -> Qos {
        Qos {
            reliable: true,
            transient_local: true,
            depth: 1,
        }
    }

    /// rclcpp's `ClockQoS` for `/clock`: best effort, the last one.
    pub fn clock() -> Qos {
        Qos {
            reliable: false,
            transient_local: false,
            depth: 1,
        }
    }
}
