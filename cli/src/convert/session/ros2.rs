//! `convert --session --to ros2`: the recordings of a session as one ROS 2
//! bag, each camera under its own namespace, with `--pose` on
//! `/tf_static`.

use std::process::ExitCode;

use rsbag::record::{export_ros2_session, session_camera_names, CameraPose, Ros2SessionOptions};
use rsbag::{Error, Result};

use super::super::super::interrupt::{on_interrupt, Undo};
use super::super::super::{emit, progress, session};
use super::super::plan::{SessionBag, SessionPlan};
use super::super::recording::ros2_report;

/// Write `plan.files` read as one session as the ROS 2 bag `plan.out`.
pub fn run(plan: &SessionPlan, bag: &SessionBag) -> Result<ExitCode> {
    let opened = session::open(&plan.files, &plan.clock)?;
    let session = &opened.session;
    let mut poses = Vec::new();
    for (file, pose) in &bag.poses {
        poses.push((session::file_index(session, "--pose", file)?, *pose));
    }
    let streams = plan.selection.streams(|n| session.find_streams(n))?;
    let window = plan.selection.session_window(session.duration())?;
    let mut chosen = session.select().time(window.bounds());
    if let Some(streams) = &streams {
        chosen = chosen.streams(streams.iter().copied());
    }
    let total = chosen.frame_count_bound()?;
    let options = Ros2SessionOptions {
        storage: bag.storage,
        mcap_compression: bag.mcap_compression,
        streams,
        poses,
        time: window.bounds(),
        image_transport: bag.image_transport,
        unite_imu: bag.unite_imu,
    };
    let partial = rsbag::storage::partial_path_for(&plan.out);
    let _remove_partial = on_interrupt(Undo::RemoveDir(partial));
    let bar = progress::bar(total, "frames");
    let export = export_ros2_session(session, &plan.out, &options, |n| bar.set_position(n));
    bar.finish_and_clear();
    let export = export?;
    let tail = format!(", {} cameras on {}", session.files().len(), session.clock());
    let mut cameras = String::new();
    for (file, name) in session.files().iter().zip(session_camera_names(session)) {
        cameras.push_str(&format!("  /{name}: {}\n", file.path().display()));
    }
    let text = ros2_report(&export, &plan.out, bag.storage, &tail, &cameras);
    emit(&text);
    Ok(opened.exit_code())
}

/// `FILE=X,Y,Z,QX,QY,QZ,QW`: the file and its camera's pose.
pub(in crate::convert) fn parse_pose(given: &str) -> Result<(String, CameraPose)> {
    let bad = |why: String| Error::InvalidArgument(format!("--pose {given}: {why}"));
    let (file, numbers) = given
        .rsplit_once('=')
        .ok_or_else(|| bad("give FILE=X,Y,Z,QX,QY,QZ,QW".into()))?;
    let values: Vec<f64> = (numbers.split(','))
        .map(|v| {
            (v.trim().parse::<f64>().ok())
                .filter(|v| v.is_finite())
                .ok_or_else(|| bad(format!("{:?} is not a number", v.trim())))
        })
        .collect::<Result<_>>()?;
    let [x, y, z, qx, qy, qz, qw] = values[..] else {
        return Err(bad(format!(
            "{} numbers; give 7: X,Y,Z (metres) and QX,QY,QZ,QW (a unit quaternion)",
            values.len()
        )));
    };
    let pose = CameraPose::new([x, y, z], [qx, qy, qz, qw]).map_err(|e| bad(e.to_string()))?;
    Ok((file.to_owned(), pose))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poses_are_a_file_and_seven_numbers() {
        let (file, pose) = parse_pose("b.bag=0.5,0,0,0,0,0,1").expect("a pose");
        assert_eq!(file, "b.bag");
        assert_eq!(pose.translation, [0.5, 0.0, 0.0]);
        for bad in [
            "b.bag",
            "b.bag=1,2,3",
            "b.bag=1,2,3,0,0,0,x",
            "b.bag=1,2,3,0,0,0,2",
            "b.bag=nan,0,0,0,0,0,1",
        ] {
            assert!(parse_pose(bad).is_err(), "{bad}");
        }
    }
}
