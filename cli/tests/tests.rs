//! The command-line tool's tests in one binary (linking one per file
//! dominated the build): each file a module, the shared helpers once.

#[path = "../../tests/common/mod.rs"]
mod common;
mod librealsense_session;
mod planted;
mod run;
mod served;
mod servers;

mod calib;
mod camera_recording;
mod cli_frames;
mod cli_record_play;
mod cli_tools;
mod convert_filters;
mod convert_media;
mod convert_processing;
mod crash_safety;
mod damage_commands;
mod db3_commands;
mod devices;
mod file_safety;
mod flags;
mod guide;
mod interop_db3;
mod interop_playback;
mod interop_ros2;
mod long_recording;
mod readme;
mod remote;
mod robot_bags;
mod ros2_live;
mod ros2_round_trip;
mod ros_camera_bags;
mod sessions;
mod several_files;
mod view;
mod view_cloud;
mod view_live;
mod view_session;
