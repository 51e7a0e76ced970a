//! `geometry_msgs`: `Vector3`, `Quaternion`, `Transform`, `Twist`, `Accel`.

use super::definitions;
use super::ser::{Decode, Encode, Reader};
use crate::Result;

/// `geometry_msgs/Vector3`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Vector3 {
    /// x.
    pub x: f64,
    /// y.
    pub y: f64,
    /// z.
    pub z: f64,
}

/// `geometry_msgs/Quaternion`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Quaternion {
    /// x.
    pub x: f64,
    /// y.
    pub y: f64,
    /// z.
    pub z: f64,
    /// w.
    pub w: f64,
}

/// `geometry_msgs/Transform`; librealsense writes stream extrinsics
/// (`.../<Stream>_<index>/tf/<group>`) and pose positions
/// (`.../pose/transform/data`) as these.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Transform {
    /// Translation.
    pub translation: Vector3,
    /// Rotation.
    pub rotation: Quaternion,
}

/// `geometry_msgs/Twist`; librealsense writes pose velocities
/// (`.../pose/twist/data`) as these.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Twist {
    /// Linear velocity.
    pub linear: Vector3,
    /// Angular velocity.
    pub angular: Vector3,
}

/// `geometry_msgs/Accel`; librealsense writes pose accelerations
/// (`.../pose/accel/data`) as these.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Accel {
    /// Linear acceleration.
    pub linear: Vector3,
    /// Angular acceleration.
    pub angular: Vector3,
}

ros_message!(
    Vector3,
    "geometry_msgs/Vector3",
    definitions::VECTOR3,
    "4a842b65f413084dc2b10fb484ea7f17"
);
ros_message!(
    Quaternion,
    "geometry_msgs/Quaternion",
    definitions::QUATERNION,
    "a779879fadf0160734f906b8c19c7004"
);
ros_message!(
    Transform,
    "geometry_msgs/Transform",
    definitions::TRANSFORM,
    "ac9eff44abf714214112b05d54a3cf9b"
);
ros_message!(
    Twist,
    "geometry_msgs/Twist",
    definitions::TWIST,
    "9f195f881246fdfa2798d1d3eebca84a"
);
ros_message!(
    Accel,
    "geometry_msgs/Accel",
    definitions::ACCEL,
    "9f195f881246fdfa2798d1d3eebca84a"
);

impl Encode for Vector3 {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        [self.x, self.y, self.z].write(out)?;
        Ok(())
    }
}

impl Decode<'_> for Vector3 {
    fn read(r: &mut Reader<'_>) -> Result<Self> {
        let [x, y, z] = r.f64_array("vector3")?;
        Ok(Vector3 { x, y, z })
    }
}

impl Encode for Quaternion {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        [self.x, self.y, self.z, self.w].write(out)?;
        Ok(())
    }
}

impl Decode<'_> for Quaternion {
    fn read(r: &mut Reader<'_>) -> Result<Self> {
        let [x, y, z, w] = r.f64_array("quaternion")?;
        Ok(Quaternion { x, y, z, w })
    }
}

impl Encode for Transform {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        self.translation.write(out)?;
        self.rotation.write(out)?;
        Ok(())
    }
}

impl Decode<'_> for Transform {
    fn read(r: &mut Reader<'_>) -> Result<Self> {
        Ok(Transform {
            translation: Vector3::read(r)?,
            rotation: Quaternion::read(r)?,
        })
    }
}

impl Encode for Twist {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        self.linear.write(out)?;
        self.angular.write(out)?;
        Ok(())
    }
}

impl Decode<'_> for Twist {
    fn read(r: &mut Reader<'_>) -> Result<Self> {
        Ok(Twist {
            linear: Vector3::read(r)?,
            angular: Vector3::read(r)?,
        })
    }
}

impl Encode for Accel {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        self.linear.write(out)?;
        self.angular.write(out)?;
        Ok(())
    }
}

impl Decode<'_> for Accel {
    fn read(r: &mut Reader<'_>) -> Result<Self> {
        Ok(Accel {
            linear: Vector3::read(r)?,
            angular: Vector3::read(r)?,
        })
    }
}
