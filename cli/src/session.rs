//! Several recordings read as one session (`rsbag frames|info A.bag
//! B.db3 ...`): the options every such command takes, and opening the
//! session with them.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rsbag::recording::{Session, SessionClock, SessionOptions};
use rsbag::{Error, Result};

use super::damage::Losses;
use super::select;

/// How several recordings are read together.
#[derive(Debug, Clone, clap::Args)]
pub struct SessionArgs {
    /// With several recordings: read each on its own, in turn, as one
    /// recording is read, instead of as one session on one timeline.
    #[arg(long)]
    pub each: bool,
    #[command(flatten)]
    pub clock: ClockArgs,
    /// Whether the one recording given is a camera bag of several
    /// cameras, once told.
    #[arg(skip)]
    several_cameras: std::cell::OnceCell<bool>,
}

/// The clock of a session and the files' offsets on it.
#[derive(Debug, Clone, clap::Args)]
pub struct ClockArgs {
    /// Seconds added to one recording's times on the session's clock:
    /// `--offset B.bag=0.35` (the file as given, its name, or the camera's
    /// serial number). Repeat for several files. Without a shared clock
    /// each recording starts at 0, so this says when it started.
    #[arg(long, value_name = "FILE=SECONDS")]
    pub offset: Vec<String>,
    /// The clock to order the session's frames on: `global` (Global Time
    /// timestamps), `arrival` (the host time frames arrived) or `start`
    /// (each recording's start plus its offset). By default the best one
    /// every recording has.
    #[arg(long, value_name = "CLOCK")]
    pub clock: Option<String>,
}

impl ClockArgs {
    /// Whether a clock or an offset is given.
    pub fn given(&self) -> bool {
        !self.offset.is_empty() || self.clock.is_some()
    }
}

impl SessionArgs {
    /// Whether `files` are read as one session: several recordings, or
    /// one camera bag of several cameras ([`several_cameras`]).
    pub fn as_session(&self, files: &[PathBuf]) -> bool {
        !self.each
            && match files {
                [one] => *self.several_cameras.get_or_init(|| several_cameras(one)),
                _ => files.len() > 1,
            }
    }

    /// An error if session options are given where they do nothing, or
    /// if a recording is given twice to be read as a session.
    pub fn validate(&self, files: &[PathBuf]) -> Result<()> {
        if !self.as_session(files) && self.clock.given() {
            return Err(Error::InvalidArgument(
                "--offset and --clock apply to a session of several recordings or cameras (and not with --each)"
                    .into(),
            ));
        }
        if self.as_session(files) {
            let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
            rsbag::recording::refuse_repeats(&paths)?;
        }
        Ok(())
    }
}

/// Whether `file` is a camera bag of several cameras (camera namespaces),
/// which the commands read as a session of one file; a file that cannot
/// be opened is not (the command then says why it cannot). A recording by
/// URL is not asked: opening it twice would fetch its index twice.
pub fn several_cameras(file: &Path) -> bool {
    !rsbag::storage::remote::is_url(file)
        && quietly(|| rsbag::recording::Recording::open(file))
            .is_ok_and(|r| r.camera_namespaces().len() > 1)
}

/// An error if `recording` is a camera bag of several cameras (read
/// whole, as one device), for a command that reads one camera: it names
/// the cameras and says how to read them (`how`).
pub fn one_camera(recording: &rsbag::recording::Recording, how: &str) -> Result<()> {
    let cameras = recording.camera_namespaces();
    if cameras.len() < 2 {
        return Ok(());
    }
    Err(Error::InvalidArgument(format!(
        "the bag holds {} cameras (ROS namespaces {}), and this reads one camera: {how}",
        cameras.len(),
        cameras.join(", "),
    )))
}

/// A session opened from the command line: the files that opened, and
/// for each its losses to damage.
pub struct Opened {
    pub session: Session,
    pub losses: Vec<Losses>,
    /// A file could not be opened (said on stderr): exit 1 at the end.
    pub failed: bool,
}

impl Opened {
    /// The exit code: a file that failed to open, then damage, then
    /// success.
    pub fn exit_code(&self) -> ExitCode {
        let damaged = self
            .losses
            .iter()
            .map(Losses::exit_code)
            .find(|c| *c != ExitCode::SUCCESS);
        match (self.failed, damaged) {
            (true, _) => ExitCode::FAILURE,
            (false, Some(code)) => code,
            (false, None) => ExitCode::SUCCESS,
        }
    }
}

impl Opened {
    /// A part of a file that could not be read was skipped: say so, under
    /// the file the error names; a read that failed is the error.
    pub fn note(&mut self, error: Error) -> Result<()> {
        let path = match &error {
            Error::InFile { path, .. } => Some(path.as_path()),
            _ => None,
        };
        let at = (self.session.files().iter())
            .position(|f| Some(f.path()) == path)
            .unwrap_or(0);
        match self.losses.get_mut(at) {
            Some(losses) => losses.note(error),
            None => Ok(()),
        }
    }
}

/// Open `files` as one session. A file that cannot be opened is said on
/// stderr and left out (the others are still read); none opening is an
/// error.
pub fn open(files: &[PathBuf], args: &ClockArgs) -> Result<Opened> {
    open_reporting(files, args, true)?
        .ok_or_else(|| Error::InvalidArgument("none of the recordings could be opened".into()))
}

/// As [`open`], for a command that has described or checked each file
/// already and said what is wrong with it: saying nothing of the files
/// that cannot be opened, nor what opening them warns of again; `None`
/// when none can be opened.
pub fn open_quietly(files: &[PathBuf], args: &ClockArgs) -> Result<Option<Opened>> {
    quietly(|| open_reporting(files, args, false))
}

/// Run `read` with the library's warnings unsaid: for reading again what
/// the command has read and warned of already.
pub fn quietly<T>(read: impl FnOnce() -> T) -> T {
    tracing::subscriber::with_default(tracing::subscriber::NoSubscriber::default(), read)
}

fn open_reporting(files: &[PathBuf], args: &ClockArgs, report: bool) -> Result<Option<Opened>> {
    let mut readers = Vec::new();
    let mut losses = Vec::new();
    let mut failed = false;
    for file in files {
        match select::open(file) {
            Ok(reader) => {
                let mut lost = Losses::new(file);
                lost.watch(reader.recording());
                losses.push(lost);
                readers.push((file.clone(), reader));
            }
            Err(e) => {
                if report {
                    eprintln!("rsbag: {e}{}", rsbag::storage::recovery_hint(&e));
                }
                failed = true;
            }
        }
    }
    if readers.is_empty() {
        return Ok(None);
    }
    let clock = match &args.clock {
        None => None,
        Some(name) => Some(SessionClock::from_name(name).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "--clock {name}: not a clock (global, arrival or start)"
            ))
        })?),
    };
    let mut offsets = Vec::new();
    for given in &args.offset {
        let (file, seconds) = given.rsplit_once('=').ok_or_else(|| {
            Error::InvalidArgument(format!("--offset {given}: give FILE=SECONDS"))
        })?;
        let seconds: f64 = seconds
            .trim()
            .parse()
            .ok()
            .filter(|s: &f64| s.is_finite())
            .ok_or_else(|| {
                Error::InvalidArgument(format!("--offset {given}: {seconds} is not seconds"))
            })?;
        offsets.push((which_file(&readers, file)?, seconds));
    }
    let session = Session::from_readers(readers, SessionOptions { clock, offsets })?;
    let losses = per_camera(&session, losses);
    let verdict = session.verdict();
    if report && !verdict.one_session {
        eprintln!(
            "rsbag: warning: not one session: {}; read on one timeline as given (--each reads each on its own)",
            verdict.reason
        );
    }
    Ok(Some(Opened {
        session,
        losses,
        failed,
    }))
}

/// `losses`, one per file in the order the session's files were given,
/// as one per camera of `session`: a file's first camera has its file's,
/// its other cameras (of a bag of several) none of their own.
fn per_camera(session: &Session, losses: Vec<Losses>) -> Vec<Losses> {
    let mut by_file: Vec<Option<Losses>> = losses.into_iter().map(Some).collect();
    let mut files: Vec<&Path> = Vec::new();
    for camera in session.files() {
        if files.last() != Some(&camera.path()) {
            files.push(camera.path());
        }
    }
    (session.files().iter())
        .map(|camera| {
            let at = files.iter().position(|f| *f == camera.path());
            (at.and_then(|at| by_file[at].take())).unwrap_or_else(|| Losses::new(camera.path()))
        })
        .collect()
}

/// The file of the session `name` stands for: its path as given, its
/// file name, or its recording's serial number.
fn which_file(readers: &[(PathBuf, rsbag::recording::FrameReader)], name: &str) -> Result<PathBuf> {
    let files = readers.iter().map(|(path, reader)| {
        let serial = (reader.recording().snapshot().info)
            .get(rsbag::device::camera_info::SERIAL_NUMBER)
            .map(str::to_owned);
        (path.as_path(), serial)
    });
    let at = find_file(files, "--offset", name)?;
    Ok(readers[at].0.clone())
}

/// The position in `session` of the camera `name` stands for (the name of
/// one of several cameras of a bag; or its file's path as given, name, or
/// serial number), for option `option`.
pub fn file_index(session: &Session, option: &str, name: &str) -> Result<usize> {
    let named: Vec<usize> = (session.files().iter().enumerate())
        .filter(|(_, f)| f.namespace().is_some() && f.name() == name)
        .map(|(at, _)| at)
        .collect();
    if let [one] = named.as_slice() {
        return Ok(*one);
    }
    let files = (session.files().iter()).map(|f| (f.path(), Some(f.serial().to_owned())));
    find_file(files, option, name)
}

/// The position of the one file of `files` (path, serial) that `name`
/// stands for.
fn find_file<'a>(
    files: impl Iterator<Item = (&'a Path, Option<String>)>,
    option: &str,
    name: &str,
) -> Result<usize> {
    let matches = |path: &Path, serial: Option<String>| {
        path == Path::new(name)
            || path.file_name().is_some_and(|f| f == name)
            || serial.is_some_and(|s| s == name)
    };
    let found: Vec<usize> = (files.enumerate())
        .filter(|(_, (path, serial))| matches(path, serial.clone()))
        .map(|(at, _)| at)
        .collect();
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(Error::InvalidArgument(format!(
            "{option} {name}: no recording of the session is {name} (give the file, its name or its serial number)"
        ))),
        _ => Err(Error::InvalidArgument(format!(
            "{option} {name}: several recordings or cameras of the session are {name}; give the file's path, or the camera's name (rsbag info shows it)"
        ))),
    }
}

/// The lines that say what the session is: its clock and its cameras.
pub fn header(session: &Session) -> String {
    let mut out = String::new();
    outln!(
        out,
        "session: {}, clock: {} ({})",
        what(
            session
                .files()
                .iter()
                .map(|f| (f.path(), f.namespace().is_some()))
        ),
        session.clock(),
        session.clock().describe()
    );
    for file in session.files() {
        outln!(
            out,
            "camera:  {:<14} {}{}{}",
            file.name(),
            file.path().display(),
            file.namespace()
                .map(|ns| format!(" {ns}"))
                .unwrap_or_default(),
            if file.offset() != 0.0 {
                format!("  (offset {:+.3} s)", file.offset())
            } else {
                String::new()
            }
        );
    }
    out
}

/// What a session's cameras (each its file and whether it is one of a bag
/// of several) are, in words: `3 recordings`, or `2 cameras in 1 file`
/// where a bag of several cameras is among them.
pub fn what<'a>(cameras: impl Iterator<Item = (&'a Path, bool)>) -> String {
    let mut files: Vec<&Path> = Vec::new();
    let (mut count, mut of_a_bag) = (0, false);
    for (file, one_of_several) in cameras {
        count += 1;
        of_a_bag |= one_of_several;
        if !files.contains(&file) {
            files.push(file);
        }
    }
    match (of_a_bag, files.len()) {
        (false, _) => format!("{count} recordings"),
        (true, 1) => format!("{count} cameras in 1 file"),
        (true, n) => format!("{count} cameras in {n} files"),
    }
}
