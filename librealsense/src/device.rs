//! A librealsense device behind rsbag's [`Device`] trait: its sensors,
//! profiles, options and extrinsics, and its frames delivered to rsbag's
//! callbacks (so `Recorder` records a camera as it records any device).

use std::collections::{BTreeMap, HashMap};
use std::ffi::{c_int, c_void};
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crossbeam_channel::{Receiver, Sender};

use bytes::Bytes;
use parking_lot::Mutex;
use rsbag::device::metadata_key::{self, MetadataKey};
use rsbag::device::{
    CameraInfo, Device, Distortion, Extrinsics, Format, Frame, FrameCallback, Intrinsics,
    MotionIntrinsics, Notification, NotificationCallback, OptionCallback, OptionRange, ProfileKind,
    Sensor, SensorOption, StreamId, StreamKind, StreamProfile, TimestampDomain,
};

use crate::api::{string, Api, Handle, Rs2Extrinsics, Rs2MotionIntrinsics};
use crate::list::{self, Owned};
use crate::{Error, Result};

/// A librealsense object handle shared between threads: librealsense's
/// objects may be used from any thread.
pub(crate) struct Shared(Owned);

impl Shared {
    pub(crate) fn raw(&self) -> Handle {
        self.0.raw()
    }
}

// SAFETY: librealsense's devices and sensors are thread-safe.
unsafe impl Send for Shared {}
// SAFETY: as above.
unsafe impl Sync for Shared {}

/// A stream profile handle, owned by its sensor's profile list.
#[derive(Clone, Copy)]
struct ProfileHandle(Handle);
// SAFETY: profiles are immutable librealsense objects.
unsafe impl Send for ProfileHandle {}
// SAFETY: as above.
unsafe impl Sync for ProfileHandle {}

/// A device of a librealsense context, as an rsbag [`Device`].
pub struct LibrealsenseDevice {
    // Dropped before the library: the sensors, then the device.
    sensors: Vec<Arc<LibrealsenseSensor>>,
    device: Arc<Shared>,
    info: CameraInfo,
    api: Arc<Api>,
}

impl std::fmt::Debug for LibrealsenseDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LibrealsenseDevice")
            .field("info", &self.info)
            .finish()
    }
}

impl LibrealsenseDevice {
    /// Wrap `device` (owned from now on).
    pub(crate) fn new(api: Arc<Api>, device: Owned) -> Result<LibrealsenseDevice> {
        let described = list::device_info(&api, device.raw())?;
        let f = &api.f;
        let sensor_list = Owned::new(
            api.call(|e| unsafe { (f.rs2_query_sensors)(device.raw(), e) })?,
            f.rs2_delete_sensor_list,
        );
        let sensors = described
            .sensors
            .iter()
            .enumerate()
            .map(|(i, info)| {
                let raw = api
                    .call(|e| unsafe { (f.rs2_create_sensor)(sensor_list.raw(), i as c_int, e) })?;
                LibrealsenseSensor::new(api.clone(), Owned::new(raw, f.rs2_delete_sensor), info)
                    .map(Arc::new)
            })
            .collect::<Result<_>>()?;
        Ok(LibrealsenseDevice {
            sensors,
            device: Arc::new(Shared(device)),
            info: CameraInfo::new(described.info),
            api,
        })
    }

    pub(crate) fn handle(&self) -> &Arc<Shared> {
        &self.device
    }

    /// The frames librealsense handed over so far, per stream (each
    /// counted in librealsense's callback, before rsbag's).
    pub fn delivered(&self) -> BTreeMap<StreamId, u64> {
        let mut delivered = BTreeMap::new();
        for sensor in &self.sensors {
            for (stream, count) in sensor.delivered.values() {
                let count = count.load(Ordering::Relaxed);
                if count > 0 {
                    *delivered.entry(*stream).or_default() += count;
                }
            }
        }
        delivered
    }

    /// Load an advanced-mode preset (the JSON realsense-viewer saves) into
    /// the device: an error, and nothing changed, for a device without
    /// advanced mode (every played recording) or with it turned off.
    pub fn load_preset(&self, json: &str) -> Result<()> {
        let f = &self.api.f;
        let device = self.device.raw();
        let name = || {
            format!(
                "{} {}",
                self.info.get("Name").unwrap_or("the device"),
                self.info.get("Serial Number").unwrap_or_default()
            )
        };
        let extension = advanced_mode_extension(&self.api)
            .ok_or_else(|| Error::Librealsense("this librealsense has no advanced mode".into()))?;
        // SAFETY: a live device.
        let extendable = self
            .api
            .call(|e| unsafe { (f.rs2_is_device_extendable_to)(device, extension, e) })?;
        if extendable == 0 {
            return Err(Error::Librealsense(format!(
                "{} has no advanced mode (a played recording never has; a camera of the D400 \
                 series has), so a preset cannot be loaded",
                name()
            )));
        }
        let mut enabled: c_int = 0;
        // SAFETY: a live device and a local to fill.
        self.api
            .call(|e| unsafe { (f.rs2_is_enabled)(device, &mut enabled, e) })?;
        if enabled == 0 {
            return Err(Error::Librealsense(format!(
                "advanced mode is off on {}: turn it on (realsense-viewer does) and load the \
                 preset again",
                name()
            )));
        }
        let size = u32::try_from(json.len())
            .map_err(|_| Error::Librealsense("the preset is larger than 4 GB".into()))?;
        // SAFETY: a live device and `size` bytes of text.
        self.api
            .call(|e| unsafe { (f.rs2_load_json)(device, json.as_ptr() as *const c_void, size, e) })
    }

    /// For a recording played as a device: hold its frames back, so that
    /// every sensor can be started before the first frame is read (as
    /// librealsense's own tools do; a sensor started late loses frames).
    /// An error for a camera.
    pub fn pause(&self) -> Result<()> {
        let f = &self.api.f;
        let device = self.device.raw();
        self.api
            .call(|e| unsafe { (f.rs2_playback_device_pause)(device, e) })
    }

    /// Let a paused recording's frames go.
    pub fn resume(&self) -> Result<()> {
        let f = &self.api.f;
        let device = self.device.raw();
        self.api
            .call(|e| unsafe { (f.rs2_playback_device_resume)(device, e) })
    }

    /// For a recording played as a device: whether librealsense has played
    /// it to its end (`false` for a camera).
    pub fn playback_finished(&self) -> bool {
        let f = &self.api.f;
        let device = self.device.raw();
        match self
            .api
            .call(|e| unsafe { (f.rs2_playback_device_get_current_status)(device, e) })
        {
            // SAFETY: static text.
            Ok(status) => unsafe { string((f.rs2_playback_status_to_string)(status)) }
                .eq_ignore_ascii_case("stopped"),
            Err(_) => false,
        }
    }
}

impl Device for LibrealsenseDevice {
    fn info(&self) -> CameraInfo {
        self.info.clone()
    }

    fn sensors(&self) -> Vec<Arc<dyn Sensor>> {
        self.sensors
            .iter()
            .map(|s| s.clone() as Arc<dyn Sensor>)
            .collect()
    }

    fn extrinsics(&self, from: StreamId, to: StreamId) -> Option<Extrinsics> {
        let profile = |stream: StreamId| {
            self.sensors.iter().find_map(|s| {
                s.profiles
                    .iter()
                    .find(|(p, _)| p.stream == stream)
                    .map(|(_, h)| *h)
            })
        };
        let (from, to) = (profile(from)?, profile(to)?);
        let mut e = Rs2Extrinsics::default();
        let f = &self.api.f;
        self.api
            .call(|err| unsafe { (f.rs2_get_extrinsics)(from.0, to.0, &mut e, err) })
            .ok()?;
        Some(Extrinsics {
            rotation: e.rotation,
            translation: e.translation,
        })
    }
}

/// What a started sensor's callback needs: kept alive until it stops.
struct Delivery {
    api: Arc<Api>,
    /// The sensor's profiles by librealsense's unique id, with the count
    /// of frames delivered.
    profiles: HashMap<i32, (StreamProfile, Arc<AtomicU64>)>,
    callback: FrameCallback,
}

#[derive(Default)]
struct SensorState {
    active: Vec<StreamProfile>,
    delivery: Option<Box<Delivery>>,
    option_listeners: Vec<OptionCallback>,
    /// Where librealsense's notifications go, once someone listens.
    notifications: Option<Notifications>,
}

/// A sensor of a librealsense device.
pub struct LibrealsenseSensor {
    // The profile handles belong to the list: dropped before the sensor.
    profiles: Vec<(StreamProfile, ProfileHandle)>,
    _profile_list: Shared,
    sensor: Shared,
    info: CameraInfo,
    /// Option ids by name.
    option_ids: HashMap<String, c_int>,
    /// Frames delivered, by profile id.
    delivered: HashMap<u32, (StreamId, Arc<AtomicU64>)>,
    state: Mutex<SensorState>,
    api: Arc<Api>,
}

impl LibrealsenseSensor {
    fn new(api: Arc<Api>, sensor: Owned, info: &list::SensorInfo) -> Result<LibrealsenseSensor> {
        let f = &api.f;
        let profile_list = Owned::new(
            api.call(|e| unsafe { (f.rs2_get_stream_profiles)(sensor.raw(), e) })?,
            f.rs2_delete_stream_profiles_list,
        );
        let mut profiles = Vec::new();
        for (i, described) in info.profiles.iter().enumerate() {
            let raw = api.call(|e| unsafe {
                (f.rs2_get_stream_profile)(profile_list.raw(), i as c_int, e)
            })?;
            if let Some(profile) = stream_profile(described) {
                let profile = with_motion_intrinsics(&api, profile, raw);
                profiles.push((profile, ProfileHandle(raw)));
            }
        }
        let option_ids = list::option_ids(&api, sensor.raw())?;
        let delivered = profiles
            .iter()
            .map(|(p, _)| (p.unique_id, (p.stream, Arc::new(AtomicU64::new(0)))))
            .collect();
        Ok(LibrealsenseSensor {
            delivered,
            profiles,
            _profile_list: Shared(profile_list),
            sensor: Shared(sensor),
            info: CameraInfo::new(info.info.clone()),
            option_ids,
            state: Mutex::default(),
            api,
        })
    }

    fn raw(&self) -> Handle {
        self.sensor.raw()
    }

    /// `value` is one `name` (librealsense's option `id`) can take: an
    /// error saying why not (read-only, or its range).
    fn check_value(&self, name: &str, id: c_int, value: f32) -> rsbag::Result<()> {
        let f = &self.api.f;
        let (mut min, mut max, mut step, mut default) = (0.0, 0.0, 0.0, 0.0);
        self.api
            .call(|e| unsafe {
                (f.rs2_get_option_range)(
                    self.raw(),
                    id,
                    &mut min,
                    &mut max,
                    &mut step,
                    &mut default,
                    e,
                )
            })
            .map_err(failed)?;
        if !(min..=max).contains(&value) {
            return Err(rsbag::Error::InvalidArgument(format!(
                "{} option {name:?} takes {min} to {max} in steps of {step} (default {default}), \
                 not {value}",
                self.name()
            )));
        }
        let read_only = self
            .api
            .call(|e| unsafe { (f.rs2_is_option_read_only)(self.raw(), id, e) })
            .map_err(failed)?;
        if read_only != 0 {
            return Err(rsbag::Error::InvalidArgument(format!(
                "{} option {name:?} is read-only here",
                self.name()
            )));
        }
        Ok(())
    }
}

/// rsbag's profile for librealsense's, where rsbag knows its stream and
/// format.
fn stream_profile(p: &list::ProfileInfo) -> Option<StreamProfile> {
    let kind = StreamKind::from_str(&p.stream).ok()?;
    let format = Format::from_str(&p.format).ok()?;
    let stream = StreamId::new(kind, u32::try_from(p.index).ok()?);
    let fps = u32::try_from(p.fps).ok()?;
    let mut profile = match (p.resolution, kind) {
        (Some((w, h)), _) => StreamProfile::video(
            stream,
            format,
            u32::try_from(w).ok()?,
            u32::try_from(h).ok()?,
            fps,
        ),
        (None, StreamKind::Pose) => StreamProfile::pose(stream, fps),
        (None, _) => StreamProfile::motion(stream, format, fps),
    };
    if let (Some(i), Some((w, h))) = (&p.intrinsics, p.resolution) {
        profile = profile.with_intrinsics(Intrinsics {
            width: w as u32,
            height: h as u32,
            ppx: i.ppx,
            ppy: i.ppy,
            fx: i.fx,
            fy: i.fy,
            model: Distortion::from_str(&i.model).unwrap_or(Distortion::None),
            coeffs: i.coeffs,
        });
    }
    profile = profile.with_unique_id(u32::try_from(p.unique_id).ok()?);
    Some(if p.default {
        profile.as_default()
    } else {
        profile
    })
}

/// A motion profile with the IMU intrinsics librealsense has for it (a
/// recording keeps them: without them a played IMU stream is uncalibrated).
fn with_motion_intrinsics(api: &Api, profile: StreamProfile, raw: Handle) -> StreamProfile {
    if !matches!(profile.kind, ProfileKind::Motion { .. }) {
        return profile;
    }
    let mut m = Rs2MotionIntrinsics::default();
    let f = &api.f;
    // An IMU without calibration has none: an error here means "none".
    match api.call(|e| unsafe { (f.rs2_get_motion_intrinsics)(raw, &mut m, e) }) {
        Ok(()) => profile.with_motion_intrinsics(MotionIntrinsics {
            data: m.data,
            noise_variances: m.noise_variances,
            bias_variances: m.bias_variances,
        }),
        Err(_) => profile,
    }
}

fn failed(e: Error) -> rsbag::Error {
    rsbag::Error::InvalidArgument(e.to_string())
}

impl Sensor for LibrealsenseSensor {
    fn info(&self) -> CameraInfo {
        self.info.clone()
    }

    fn profiles(&self) -> Vec<StreamProfile> {
        self.profiles.iter().map(|(p, _)| *p).collect()
    }

    fn options(&self) -> Vec<SensorOption> {
        let sensor = self.raw();
        list::options(&self.api, sensor)
            .unwrap_or_default()
            .into_iter()
            .map(|o| SensorOption {
                description: self
                    .option_ids
                    .get(&o.name)
                    .map(|&id| list::option_description(&self.api, sensor, id))
                    .unwrap_or_default(),
                name: o.name,
                value: o.value,
                range: OptionRange {
                    min: o.min,
                    max: o.max,
                    step: o.step,
                    default: o.default,
                },
                read_only: o.read_only,
            })
            .collect()
    }

    fn set_option(&self, name: &str, value: f32) -> rsbag::Result<()> {
        let Some(&id) = self.option_ids.get(name) else {
            let mut known: Vec<&str> = self.option_ids.keys().map(String::as_str).collect();
            known.sort_unstable();
            return Err(rsbag::Error::InvalidArgument(format!(
                "{} has no option {name:?}; it has: {}",
                self.name(),
                known.join(", ")
            )));
        };
        self.check_value(name, id, value)?;
        let f = &self.api.f;
        self.api
            .call(|e| unsafe { (f.rs2_set_option)(self.raw(), id, value, e) })
            .map_err(failed)?;
        let listeners = self.state.lock().option_listeners.clone();
        for listener in listeners {
            listener(name, value);
        }
        Ok(())
    }

    fn add_option_listener(&self, callback: OptionCallback) {
        self.state.lock().option_listeners.push(callback);
    }

    fn add_notification_listener(&self, callback: NotificationCallback) {
        let mut state = self.state.lock();
        match &state.notifications {
            Some(notifications) => notifications.listeners.lock().push(callback),
            None => match Notifications::start(&self.api, self.raw(), callback) {
                Ok(notifications) => state.notifications = Some(notifications),
                Err(e) => tracing::warn!("{}: no notifications: {e}", self.name()),
            },
        }
    }

    fn open(&self, profiles: &[StreamProfile]) -> rsbag::Result<()> {
        let handles: Vec<Handle> = profiles
            .iter()
            .map(|want| {
                self.profiles
                    .iter()
                    .find(|(p, _)| p.unique_id == want.unique_id)
                    .map(|(_, h)| h.0)
                    .ok_or_else(|| {
                        rsbag::Error::InvalidArgument(format!(
                            "{} has no profile {:?}",
                            self.name(),
                            want
                        ))
                    })
            })
            .collect::<rsbag::Result<_>>()?;
        let f = &self.api.f;
        self.api
            .call(|e| unsafe {
                (f.rs2_open_multiple)(self.raw(), handles.as_ptr(), handles.len() as c_int, e)
            })
            .map_err(failed)?;
        self.state.lock().active = profiles.to_vec();
        Ok(())
    }

    fn start(&self, callback: FrameCallback) -> rsbag::Result<()> {
        let delivery = Box::new(Delivery {
            api: self.api.clone(),
            profiles: self
                .profiles
                .iter()
                .map(|(p, _)| {
                    let count = self.delivered[&p.unique_id].1.clone();
                    (p.unique_id as i32, (*p, count))
                })
                .collect(),
            callback,
        });
        let user = &*delivery as *const Delivery as *mut c_void;
        // Kept before starting: frames may arrive at once.
        self.state.lock().delivery = Some(delivery);
        let f = &self.api.f;
        let started = self
            .api
            .call(|e| unsafe { (f.rs2_start)(self.raw(), on_frame, user, e) });
        if let Err(e) = started {
            self.state.lock().delivery = None;
            return Err(failed(e));
        }
        Ok(())
    }

    fn stop(&self) -> rsbag::Result<()> {
        let f = &self.api.f;
        // librealsense returns once no callback of the sensor runs, so the
        // delivery can go then.
        let stopped = self.api.call(|e| unsafe { (f.rs2_stop)(self.raw(), e) });
        self.state.lock().delivery = None;
        stopped.map_err(failed)
    }

    fn close(&self) -> rsbag::Result<()> {
        let f = &self.api.f;
        self.api
            .call(|e| unsafe { (f.rs2_close)(self.raw(), e) })
            .map_err(failed)?;
        self.state.lock().active.clear();
        Ok(())
    }

    fn active_profiles(&self) -> Vec<StreamProfile> {
        self.state.lock().active.clone()
    }
}

impl std::fmt::Debug for LibrealsenseSensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LibrealsenseSensor")
            .field("info", &self.info)
            .finish()
    }
}

/// librealsense's frame callback: the frame copied into an rsbag
/// [`Frame`] and released at once, then handed to rsbag's callback
/// (which, for the recorder, only queues it: librealsense is never kept
/// waiting on a disk).
unsafe extern "C" fn on_frame(frame: Handle, user: *mut c_void) {
    // SAFETY: `user` is the `Delivery` the sensor keeps until it stops.
    let delivery = &*(user as *const Delivery);
    let converted = to_frame(delivery, frame);
    (delivery.api.f.rs2_release_frame)(frame);
    if let Ok(frame) = converted {
        (delivery.callback)(frame);
    }
}

/// The rsbag frame of a librealsense frame (its bytes copied).
fn to_frame(delivery: &Delivery, frame: Handle) -> Result<Frame> {
    let api = &delivery.api;
    let f = &api.f;
    // SAFETY (every call): `frame` is alive until released by the caller.
    let profile_handle = api.call(|e| unsafe { (f.rs2_get_frame_stream_profile)(frame, e) })?;
    let [_, _, _, unique_id, _] = list::profile_data(api, profile_handle)?;
    let (profile, delivered) = delivery
        .profiles
        .get(&unique_id)
        .ok_or_else(|| Error::Librealsense(format!("a frame of an unknown profile {unique_id}")))?;
    delivered.fetch_add(1, Ordering::Relaxed);
    let profile = *profile;
    let data = api.call(|e| unsafe { (f.rs2_get_frame_data)(frame, e) })?;
    let size = api.call(|e| unsafe { (f.rs2_get_frame_data_size)(frame, e) })?;
    let bytes = if data.is_null() || size <= 0 {
        Bytes::new()
    } else {
        // SAFETY: librealsense's buffer of `size` bytes, alive until release.
        Bytes::copy_from_slice(unsafe {
            std::slice::from_raw_parts(data as *const u8, size as usize)
        })
    };
    let domain = api.call(|e| unsafe { (f.rs2_get_frame_timestamp_domain)(frame, e) })?;
    // SAFETY: static text.
    let domain = unsafe { string((f.rs2_timestamp_domain_to_string)(domain)) };
    let metadata = frame_metadata(api, frame)?;
    let system_time = metadata
        .iter()
        .find(|(k, _)| k == "Time Of Arrival")
        .map_or_else(now_ms, |(_, v)| *v as f64);
    let stride = match profile.resolution() {
        Some(_) => api.call(|e| unsafe { (f.rs2_get_frame_stride_in_bytes)(frame, e) })? as u32,
        None => 0,
    };
    Ok(Frame {
        profile,
        number: api.call(|e| unsafe { (f.rs2_get_frame_number)(frame, e) })?,
        timestamp: api.call(|e| unsafe { (f.rs2_get_frame_timestamp)(frame, e) })?,
        domain: TimestampDomain::from_str(&domain)
            .map_err(|e| Error::Librealsense(e.to_string()))?,
        system_time,
        metadata,
        stride,
        data: bytes,
    })
}

/// Every metadata value the frame has, by librealsense's name.
fn frame_metadata(api: &Api, frame: Handle) -> Result<Vec<(MetadataKey, i64)>> {
    let f = &api.f;
    let mut values = Vec::new();
    // Numbered from 0; past the last, the name is UNKNOWN.
    for key in 0.. {
        // SAFETY: static text for any number.
        let name = unsafe { string((f.rs2_frame_metadata_to_string)(key)) };
        if name.is_empty() || name.eq_ignore_ascii_case("unknown") {
            break;
        }
        if api.call(|e| unsafe { (f.rs2_supports_frame_metadata)(frame, key, e) })? != 0 {
            values.push((
                metadata_key::key(&name),
                api.call(|e| unsafe { (f.rs2_get_frame_metadata)(frame, key, e) })?,
            ));
        }
    }
    Ok(values)
}

/// Host time, ms since the Unix epoch: a live frame's arrival.
fn now_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// A sensor's notifications: librealsense's callback hands each to a
/// thread of rsbag's (through a bounded queue it never waits on), which
/// calls the listeners, so a listener that waits (the recorder, on a slow
/// disk) never holds librealsense up.
struct Notifications {
    listeners: Arc<Mutex<Vec<NotificationCallback>>>,
    /// Dropped with the sensor: the thread then ends.
    _stop: Sender<()>,
}

/// At most this many notifications wait for the listeners; more are
/// dropped (a notification storm must not grow without bound).
const NOTIFICATIONS_QUEUED: usize = 1024;

/// What librealsense's notification callback needs.
///
/// Never freed: librealsense keeps the callback as long as its sensor
/// lives, which can be longer than this handle (the device owns the
/// sensor). It is a channel end and the library, which stays loaded.
struct NotificationSink {
    api: Arc<Api>,
    notifications: Sender<Notification>,
}

impl Notifications {
    fn start(api: &Arc<Api>, sensor: Handle, first: NotificationCallback) -> Result<Notifications> {
        let (sender, notifications) = crossbeam_channel::bounded(NOTIFICATIONS_QUEUED);
        let (stop, stopped) = crossbeam_channel::bounded(0);
        let listeners = Arc::new(Mutex::new(vec![first]));
        let sink: &'static NotificationSink = Box::leak(Box::new(NotificationSink {
            api: api.clone(),
            notifications: sender,
        }));
        let user = sink as *const NotificationSink as *mut c_void;
        let f = &api.f;
        // SAFETY: a live sensor; `user` lives for the rest of the process.
        api.call(|e| unsafe {
            (f.rs2_set_notifications_callback)(sensor, on_notification, user, e)
        })?;
        let delivered = listeners.clone();
        std::thread::Builder::new()
            .name("rsbag-notifications".into())
            .spawn(move || deliver_notifications(notifications, stopped, delivered))
            .map_err(|e| Error::Librealsense(format!("a thread for notifications: {e}")))?;
        Ok(Notifications {
            listeners,
            _stop: stop,
        })
    }
}

/// Hand each notification to the listeners (no lock held while they run)
/// until the sensor is dropped.
fn deliver_notifications(
    notifications: Receiver<Notification>,
    stopped: Receiver<()>,
    listeners: Arc<Mutex<Vec<NotificationCallback>>>,
) {
    loop {
        crossbeam_channel::select! {
            recv(notifications) -> n => match n {
                Ok(n) => {
                    let listeners = listeners.lock().clone();
                    for listener in listeners {
                        listener(&n);
                    }
                }
                Err(_) => return,
            },
            recv(stopped) -> _ => return,
        }
    }
}

/// librealsense's notification callback: the notification copied and
/// queued (never waiting).
unsafe extern "C" fn on_notification(notification: Handle, user: *mut c_void) {
    // SAFETY: `user` is the leaked `NotificationSink`.
    let sink = &*(user as *const NotificationSink);
    if let Ok(n) = to_notification(&sink.api, notification) {
        let _ = sink.notifications.try_send(n);
    }
}

/// rsbag's notification of librealsense's (alive during the callback).
fn to_notification(api: &Api, n: Handle) -> Result<Notification> {
    let f = &api.f;
    // SAFETY (every call): `n` is alive during the callback; the texts are
    // copied at once; the names are static text.
    let category = api.call(|e| unsafe { (f.rs2_get_notification_category)(n, e) })?;
    let severity = api.call(|e| unsafe { (f.rs2_get_notification_severity)(n, e) })?;
    Ok(Notification {
        category: unsafe { string((f.rs2_notification_category_to_string)(category)) },
        severity: unsafe { string((f.rs2_log_severity_to_string)(severity)) },
        description: unsafe { string(api.call(|e| (f.rs2_get_notification_description)(n, e))?) },
        timestamp: api.call(|e| unsafe { (f.rs2_get_notification_timestamp)(n, e) })?,
        serialized_data: unsafe {
            string(api.call(|e| (f.rs2_get_notification_serialized_data)(n, e))?)
        },
    })
}

/// librealsense's number for its advanced-mode extension, found by name
/// (the numbering is librealsense's, not fixed by rsbag).
fn advanced_mode_extension(api: &Api) -> Option<c_int> {
    // 0 is UNKNOWN; so is every number past the last.
    for i in 1..1000 {
        // SAFETY: a name for any number; static text.
        let name = unsafe { string((api.f.rs2_extension_type_to_string)(i)) };
        if name.is_empty() || name.eq_ignore_ascii_case("unknown") {
            return None;
        }
        if name.eq_ignore_ascii_case("advanced mode") {
            return Some(i);
        }
    }
    None
}
