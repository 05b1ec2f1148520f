//! Whole files written safely: to a temporary file beside the real one,
//! renamed into place once every byte is written and on the disk.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{Problem, kind};

/// Random characters in a temporary file's name, after `<name>.tmp-`.
const TEMP_RANDOM_LEN: usize = 6;

/// A temporary file of a killed writer older than this is removed by
/// [`remove_stale_temps`].
const STALE_TEMP_AGE: Duration = Duration::from_secs(60);

/// What to do when a regular file is at the path already.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    /// Refuse ([`Problem::Exists`]), even if the file appears meanwhile.
    Refuse,
    /// Replace it.
    Replace,
}

/// The permissions of the file written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permissions {
    /// These, less the umask, as a new file gets them (0o666 for most
    /// files, 0o600 for a secret).
    New(u32),
    /// Exactly these (a file replaced keeps its own).
    Exactly(u32),
}

/// Writes a whole file at `path`: what `write` writes goes to a temporary
/// file in the same folder, which is renamed into place once it is all
/// written and synced. A symbolic link, a named pipe, a device or a folder
/// at the path is refused and left as it is; so is a regular file when
/// `existing` says so. On any failure the path is left as it was and the
/// temporary file is removed.
pub fn write_whole<T>(
    path: &Path,
    existing: Existing,
    permissions: Permissions,
    write: impl FnOnce(&mut dyn Write) -> io::Result<T>,
) -> Result<T, Problem> {
    check_target(path, existing)?;
    let dir = folder_of(path);
    let mode = match permissions {
        Permissions::New(mode) | Permissions::Exactly(mode) => mode,
    };
    let temp = tempfile::Builder::new()
        .prefix(&temp_prefix(path))
        .suffix("")
        .rand_bytes(TEMP_RANDOM_LEN)
        .permissions(fs::Permissions::from_mode(mode))
        .tempfile_in(&dir)?;
    if let Permissions::Exactly(mode) = permissions {
        temp.as_file()
            .set_permissions(fs::Permissions::from_mode(mode))?;
    }
    let value = {
        let mut out = BufWriter::new(temp.as_file());
        let value = write(&mut out)?;
        out.flush()?;
        value
    };
    temp.as_file().sync_all()?;
    match existing {
        Existing::Refuse => match temp.persist_noclobber(path) {
            Ok(_) => {}
            Err(error) if error.error.kind() == io::ErrorKind::AlreadyExists => {
                return Err(Problem::Exists);
            }
            Err(error) => return Err(Problem::Io(error.error)),
        },
        Existing::Replace => {
            // Whatever appeared meanwhile is judged again: renaming would
            // replace a link or a pipe, not write through it, but it is not
            // ours to replace.
            check_target(path, existing)?;
            temp.persist(path).map_err(|error| error.error)?;
        }
    }
    Ok(value)
}

/// Refuses what [`write_whole`] would refuse to replace at `path`, as it
/// is now: a link, a pipe, a device, a folder, or a file unless `existing`
/// says to replace it. A writer checks again when it writes.
pub fn check_target(path: &Path, existing: Existing) -> Result<(), Problem> {
    match fs::symlink_metadata(path) {
        Ok(meta) if !meta.is_file() => Err(Problem::NotAFile(kind(meta.file_type()))),
        Ok(_) if existing == Existing::Refuse => Err(Problem::Exists),
        Ok(_) => Ok(()),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(Problem::Io(error)),
    }
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Temporary files are named `<name>.tmp-` and [`TEMP_RANDOM_LEN`] letters or digits.
fn temp_prefix(path: &Path) -> String {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |name| name.to_string_lossy());
    format!("{name}.tmp-")
}

/// Removes the temporary files beside `path` of writers that were killed
/// before they renamed them: only regular files of our own pattern, and
/// only old ones, so a writer at work (of this program or another) is never
/// hurt. Anything it cannot remove stays.
pub fn remove_stale_temps(path: &Path) {
    let prefix = temp_prefix(path);
    let Ok(entries) = fs::read_dir(folder_of(path)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(random) = name.to_str().and_then(|name| name.strip_prefix(&prefix)) else {
            continue;
        };
        if random.len() != TEMP_RANDOM_LEN || !random.bytes().all(|b| b.is_ascii_alphanumeric()) {
            continue;
        }
        // The entry itself, not what a link would point to.
        let Ok(meta) = entry.metadata() else { continue };
        let age = meta.modified().ok().and_then(|at| at.elapsed().ok());
        if meta.is_file() && age.is_some_and(|age| age > STALE_TEMP_AGE) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn hello(out: &mut dyn Write) -> io::Result<()> {
        out.write_all(b"hello\n")
    }

    #[test]
    fn a_file_is_written_whole_and_an_existing_one_replaced_only_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_whole(&path, Existing::Refuse, Permissions::New(0o666), hello).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"hello\n");
        assert!(matches!(
            write_whole(&path, Existing::Refuse, Permissions::New(0o666), hello),
            Err(Problem::Exists)
        ));
        write_whole(
            &path,
            Existing::Replace,
            Permissions::Exactly(0o640),
            |out| out.write_all(b"again\n"),
        )
        .unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"again\n");
        assert_eq!(
            fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o640
        );
        assert_eq!(names(dir.path()), ["out.txt"]);
    }

    #[test]
    fn links_pipes_and_devices_are_refused_and_left_as_they_are() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        fs::write(&target, "kept").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink("nowhere", &dangling).unwrap();
        // A named pipe is never opened: opening it would wait for a reader.
        let fifo = dir.path().join("fifo");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from(0o644),
            0,
        )
        .unwrap();
        for (path, named) in [
            (fifo.as_path(), "a named pipe"),
            (link.as_path(), "a symbolic link"),
            (dangling.as_path(), "a symbolic link"),
            (Path::new("/dev/null"), "a device"),
            (dir.path(), "a folder"),
        ] {
            match write_whole(path, Existing::Replace, Permissions::New(0o666), hello) {
                Err(Problem::NotAFile(kind)) => assert_eq!(kind, named, "{}", path.display()),
                other => panic!("{}: {other:?}", path.display()),
            }
        }
        assert_eq!(fs::read(&target).unwrap(), b"kept");
        assert_eq!(names(dir.path()), ["dangling", "fifo", "link", "target"]);
    }

    #[test]
    fn a_failed_write_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        fs::write(&path, "old").unwrap();
        let failed = write_whole(&path, Existing::Replace, Permissions::New(0o666), |out| {
            out.write_all(b"half")?;
            Err::<(), _>(io::Error::other("the disk is full"))
        });
        assert!(matches!(failed, Err(Problem::Io(_))));
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!(names(dir.path()), ["out.txt"]);
    }

    #[test]
    fn a_reader_never_sees_half_a_file() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, Ordering};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        // Every version is a run of one letter, its length the letter's
        // place in the alphabet times a thousand: a half-written file is
        // shorter than its letter says, or mixes two letters.
        let version = |n: usize| {
            let letter = b'a' + (n % 26) as u8;
            vec![letter; 1000 * (usize::from(letter - b'a') + 1)]
        };
        let whole = |bytes: &[u8]| {
            bytes.first().is_some_and(|&letter| {
                bytes.len() == 1000 * (usize::from(letter - b'a') + 1)
                    && bytes.iter().all(|&b| b == letter)
            })
        };
        fs::write(&path, version(0)).unwrap();
        let done = Arc::new(AtomicBool::new(false));
        let (first_read, reading) = std::sync::mpsc::channel();
        let reader = {
            let (path, done) = (path.clone(), Arc::clone(&done));
            std::thread::spawn(move || {
                let mut reads = 0;
                while !done.load(Ordering::Relaxed) {
                    let bytes = fs::read(&path).expect("the file is always there");
                    assert!(whole(&bytes), "a half-written file: {} bytes", bytes.len());
                    reads += 1;
                    if reads == 1 {
                        let _ = first_read.send(());
                    }
                }
                reads
            })
        };
        // The writes start once the reader reads, however late a loaded
        // machine starts its thread (if it failed instead, joining says so).
        let _ = reading.recv();
        for n in 1..=200 {
            write_whole(&path, Existing::Replace, Permissions::New(0o666), |out| {
                out.write_all(&version(n))
            })
            .unwrap();
        }
        done.store(true, Ordering::Relaxed);
        assert!(reader.join().expect("the reader saw only whole files") > 0);
        assert_eq!(fs::read(&path).unwrap(), version(200));
        assert_eq!(names(dir.path()), ["out.txt"], "no temporary file left");
    }

    #[test]
    fn only_old_temporaries_of_our_own_pattern_are_removed() {
        use std::fs::File;
        use std::time::SystemTime;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stats.json");
        let long_ago = SystemTime::now() - Duration::from_secs(600);
        let make = |name: &str, modified: SystemTime| {
            let file = File::create(dir.path().join(name)).unwrap();
            file.set_modified(modified).unwrap();
        };
        make("stats.json.tmp-Ab12Cd", long_ago); // a killed writer's: removed
        make("stats.json.tmp-Zz99Yy", SystemTime::now()); // may be in use: kept
        make("stats.json.tmp-abc", long_ago); // not our pattern
        make("stats.json.tmp-abc1234", long_ago);
        make("stats.json.tmp-ab.c12", long_ago);
        make("other.json.tmp-Ab12Cd", long_ago);
        make("stats.json.tmp", long_ago);
        fs::create_dir(dir.path().join("stats.json.tmp-Dir123")).unwrap();
        File::open(dir.path().join("stats.json.tmp-Dir123"))
            .unwrap()
            .set_modified(long_ago)
            .unwrap();
        remove_stale_temps(&path);
        assert_eq!(
            names(dir.path()),
            [
                "other.json.tmp-Ab12Cd",
                "stats.json.tmp",
                "stats.json.tmp-Dir123",
                "stats.json.tmp-Zz99Yy",
                "stats.json.tmp-ab.c12",
                "stats.json.tmp-abc",
                "stats.json.tmp-abc1234",
            ]
        );
    }
}
