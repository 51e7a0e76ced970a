//! What a context's devices are: camera info, sensors, stream profiles,
//! options, read through librealsense's C API into plain values.

use std::collections::BTreeMap;
use std::ffi::{c_char, c_float, c_int};

use serde::Serialize;

use crate::api::{string, Api, ErrorPtr, Handle, Rs2Intrinsics};
use crate::Result;

/// A device: its camera info (librealsense's names: `Name`, `Serial
/// Number`, `Firmware Version`, `Usb Type Descriptor`, ...) and sensors.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeviceInfo {
    /// Camera info, by librealsense's name of each field.
    pub info: BTreeMap<String, String>,
    /// The sensors, in librealsense's order.
    pub sensors: Vec<SensorInfo>,
}

/// A sensor of a device.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SensorInfo {
    /// Its camera info (`Name`: "Stereo Module", ...).
    pub info: BTreeMap<String, String>,
    /// Every stream profile it offers.
    pub profiles: Vec<ProfileInfo>,
    /// Every option it has, with value and range.
    pub options: Vec<OptionInfo>,
}

/// A stream profile.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProfileInfo {
    /// The stream (`Depth`, `Color`, `Infrared`, `Gyro`, ...).
    pub stream: String,
    /// The stream's index (1 and 2 for the two infrared streams).
    pub index: i32,
    /// The pixel or sample format (`Z16`, `RGB8`, `MOTION_XYZ32F`, ...).
    pub format: String,
    /// Frames per second.
    pub fps: i32,
    /// librealsense's id of the profile.
    pub unique_id: i32,
    /// Whether librealsense starts it by default.
    pub default: bool,
    /// Width and height, for a video stream.
    pub resolution: Option<(i32, i32)>,
    /// The intrinsics of a video stream, where it has them.
    pub intrinsics: Option<Intrinsics>,
}

/// A video stream's intrinsics (`rs2_intrinsics`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Intrinsics {
    /// Principal point, pixels.
    pub ppx: f32,
    /// Principal point, pixels.
    pub ppy: f32,
    /// Focal length, pixels.
    pub fx: f32,
    /// Focal length, pixels.
    pub fy: f32,
    /// The distortion model's name (`Brown Conrady`, ...).
    pub model: String,
    /// The distortion coefficients.
    pub coeffs: [f32; 5],
}

/// An option of a sensor.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OptionInfo {
    /// librealsense's name (`Depth Units`, `Laser Power`, ...).
    pub name: String,
    /// Its value now.
    pub value: f32,
    /// Smallest value.
    pub min: f32,
    /// Largest value.
    pub max: f32,
    /// Step between values.
    pub step: f32,
    /// Default value.
    pub default: f32,
    /// Whether it can be set.
    pub read_only: bool,
}

/// A librealsense object and the function that deletes it.
pub(crate) struct Owned {
    raw: Handle,
    delete: unsafe extern "C" fn(Handle),
}

impl Owned {
    pub fn new(raw: Handle, delete: unsafe extern "C" fn(Handle)) -> Owned {
        Owned { raw, delete }
    }

    pub fn raw(&self) -> Handle {
        self.raw
    }
}

impl Drop for Owned {
    fn drop(&mut self) {
        if !self.raw.is_null() {
            // SAFETY: `raw` came from librealsense with `delete` as its
            // deleter, and is deleted once.
            unsafe { (self.delete)(self.raw) }
        }
    }
}

impl std::fmt::Debug for Owned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Owned({:p})", self.raw)
    }
}

/// Every device of `context`.
pub(crate) fn devices(api: &Api, context: Handle) -> Result<Vec<DeviceInfo>> {
    let f = &api.f;
    // SAFETY (for every call below): the handles passed are alive (owned
    // here or by the caller), and the out-pointers point to locals.
    let list = Owned::new(
        api.call(|e| unsafe { (f.rs2_query_devices)(context, e) })?,
        f.rs2_delete_device_list,
    );
    let count = api.call(|e| unsafe { (f.rs2_get_device_count)(list.raw(), e) })?;
    (0..count)
        .map(|i| {
            let device = Owned::new(
                api.call(|e| unsafe { (f.rs2_create_device)(list.raw(), i, e) })?,
                f.rs2_delete_device,
            );
            device_info(api, device.raw())
        })
        .collect()
}

/// What `device` is.
pub(crate) fn device_info(api: &Api, device: Handle) -> Result<DeviceInfo> {
    let f = &api.f;
    let info = camera_info(
        api,
        |i, e| unsafe { (f.rs2_supports_device_info)(device, i, e) },
        |i, e| unsafe { (f.rs2_get_device_info)(device, i, e) },
    )?;
    let list = Owned::new(
        api.call(|e| unsafe { (f.rs2_query_sensors)(device, e) })?,
        f.rs2_delete_sensor_list,
    );
    let count = api.call(|e| unsafe { (f.rs2_get_sensors_count)(list.raw(), e) })?;
    let sensors = (0..count)
        .map(|i| {
            let sensor = Owned::new(
                api.call(|e| unsafe { (f.rs2_create_sensor)(list.raw(), i, e) })?,
                f.rs2_delete_sensor,
            );
            sensor_info(api, sensor.raw())
        })
        .collect::<Result<_>>()?;
    Ok(DeviceInfo { info, sensors })
}

/// Camera info, field by field: the fields `supports` says the object
/// has, each as `get` reads it.
fn camera_info(
    api: &Api,
    supports: impl Fn(c_int, *mut ErrorPtr) -> c_int,
    get: impl Fn(c_int, *mut ErrorPtr) -> *const c_char,
) -> Result<BTreeMap<String, String>> {
    let mut info = BTreeMap::new();
    // The fields are numbered from 0; past the last, the name is UNKNOWN.
    for field in 0.. {
        // SAFETY: a name for any number; static text.
        let name = unsafe { string((api.f.rs2_camera_info_to_string)(field)) };
        if name.is_empty() || name.eq_ignore_ascii_case("unknown") {
            break;
        }
        if api.call(|e| supports(field, e))? != 0 {
            info.insert(name, string_of(api.call(|e| get(field, e))?));
        }
    }
    Ok(info)
}

fn sensor_info(api: &Api, sensor: Handle) -> Result<SensorInfo> {
    let f = &api.f;
    let info = camera_info(
        api,
        |i, e| unsafe { (f.rs2_supports_sensor_info)(sensor, i, e) },
        |i, e| unsafe { (f.rs2_get_sensor_info)(sensor, i, e) },
    )?;
    Ok(SensorInfo {
        info,
        profiles: profiles(api, sensor)?,
        options: options(api, sensor)?,
    })
}

fn profiles(api: &Api, sensor: Handle) -> Result<Vec<ProfileInfo>> {
    let f = &api.f;
    let list = Owned::new(
        api.call(|e| unsafe { (f.rs2_get_stream_profiles)(sensor, e) })?,
        f.rs2_delete_stream_profiles_list,
    );
    let count = api.call(|e| unsafe { (f.rs2_get_stream_profiles_count)(list.raw(), e) })?;
    (0..count)
        .map(|i| {
            // Owned by the list.
            let profile = api.call(|e| unsafe { (f.rs2_get_stream_profile)(list.raw(), i, e) })?;
            profile_info(api, profile)
        })
        .collect()
}

/// librealsense's numbers for a profile: stream, format, index, unique
/// id, fps.
pub(crate) fn profile_data(api: &Api, profile: Handle) -> Result<[c_int; 5]> {
    let f = &api.f;
    let [mut stream, mut format, mut index, mut unique_id, mut fps] = [0; 5];
    // SAFETY: a live profile and locals to fill.
    api.call(|e| unsafe {
        (f.rs2_get_stream_profile_data)(
            profile,
            &mut stream,
            &mut format,
            &mut index,
            &mut unique_id,
            &mut fps,
            e,
        )
    })?;
    Ok([stream, format, index, unique_id, fps])
}

fn profile_info(api: &Api, profile: Handle) -> Result<ProfileInfo> {
    let f = &api.f;
    let [stream, format, index, unique_id, fps] = profile_data(api, profile)?;
    let default = api.call(|e| unsafe { (f.rs2_is_stream_profile_default)(profile, e) })? != 0;
    // Only a video profile has a resolution: for another, librealsense
    // reports an error, which here means "none".
    let (mut width, mut height) = (0, 0);
    let resolution = api
        .call(|e| unsafe {
            (f.rs2_get_video_stream_resolution)(profile, &mut width, &mut height, e)
        })
        .ok()
        .map(|()| (width, height));
    let intrinsics = resolution.and_then(|_| {
        let mut i = Rs2Intrinsics::default();
        api.call(|e| unsafe { (f.rs2_get_video_stream_intrinsics)(profile, &mut i, e) })
            .ok()
            .map(|()| Intrinsics {
                ppx: i.ppx,
                ppy: i.ppy,
                fx: i.fx,
                fy: i.fy,
                // SAFETY: static text.
                model: unsafe { string((f.rs2_distortion_to_string)(i.model)) },
                coeffs: i.coeffs,
            })
    });
    // SAFETY: static text.
    let (stream, format) = unsafe {
        (
            string((f.rs2_stream_to_string)(stream)),
            string((f.rs2_format_to_string)(format)),
        )
    };
    Ok(ProfileInfo {
        stream,
        index,
        format,
        fps,
        unique_id,
        default,
        resolution,
        intrinsics,
    })
}

/// Every option of `sensor`.
pub(crate) fn options(api: &Api, sensor: Handle) -> Result<Vec<OptionInfo>> {
    let f = &api.f;
    // A sensor is an `rs2_options`.
    let options = sensor;
    let mut found = Vec::new();
    for (name, option) in option_list(api, sensor)? {
        let value = api.call(|e| unsafe { (f.rs2_get_option)(options, option, e) })?;
        let (mut min, mut max, mut step, mut default): (c_float, c_float, c_float, c_float) =
            (0.0, 0.0, 0.0, 0.0);
        api.call(|e| unsafe {
            (f.rs2_get_option_range)(
                options,
                option,
                &mut min,
                &mut max,
                &mut step,
                &mut default,
                e,
            )
        })?;
        let read_only =
            api.call(|e| unsafe { (f.rs2_is_option_read_only)(options, option, e) })? != 0;
        found.push(OptionInfo {
            name,
            value,
            min,
            max,
            step,
            default,
            read_only,
        });
    }
    Ok(found)
}

/// `sensor`'s options: (name, librealsense's number).
fn option_list(api: &Api, sensor: Handle) -> Result<Vec<(String, c_int)>> {
    let f = &api.f;
    let list = Owned::new(
        api.call(|e| unsafe { (f.rs2_get_options_list)(sensor, e) })?,
        f.rs2_delete_options_list,
    );
    let count = api.call(|e| unsafe { (f.rs2_get_options_list_size)(list.raw(), e) })?;
    (0..count)
        .map(|i| {
            let option = api.call(|e| unsafe { (f.rs2_get_option_from_list)(list.raw(), i, e) })?;
            let name =
                string_of(api.call(|e| unsafe { (f.rs2_get_option_name)(sensor, option, e) })?);
            Ok((name, option))
        })
        .collect()
}

/// `sensor`'s options' numbers by name, to set them.
pub(crate) fn option_ids(
    api: &Api,
    sensor: Handle,
) -> Result<std::collections::HashMap<String, c_int>> {
    Ok(option_list(api, sensor)?.into_iter().collect())
}

/// librealsense's description of an option ("" where it has none).
pub(crate) fn option_description(api: &Api, sensor: Handle, option: c_int) -> String {
    let f = &api.f;
    api.call(|e| unsafe { (f.rs2_get_option_description)(sensor, option, e) })
        .map(string_of)
        .unwrap_or_default()
}

/// Text librealsense returned from an object, copied at once.
fn string_of(text: *const c_char) -> String {
    // SAFETY: null or a string alive as long as the object it came from.
    unsafe { string(text) }
}
