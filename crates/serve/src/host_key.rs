//! The server's identity: an ed25519 host key made on first start and
//! kept. The key file is read as every file the program reads is
//! ([`tictactoe_game::files`]): a regular file (never a FIFO, which would
//! hang the start, or a device such as `/dev/zero`, which never ends), no
//! larger than a small cap; and it must be readable by its owner alone, an
//! ed25519 key, and not protected by a passphrase. A new key is written
//! whole or not at all, and never over anything.

use std::fmt;
use std::fs::{self, DirBuilder, Permissions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

use russh::keys::ssh_key::LineEnding;
use russh::keys::{Algorithm, PrivateKey};

use super::ServeError;
use tictactoe_game::files::{self, Existing, Problem};

/// The largest host key file read: an ed25519 key takes under 500 bytes.
const MAX_HOST_KEY: u64 = 64 * 1024;

/// `host_key` in the platform's data directory, beside the statistics.
pub(super) fn default_path() -> Option<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "tictactoe")?;
    Some(dirs.data_dir().join("host_key"))
}

/// Why a file given to the server (the host key, the authorized keys)
/// cannot be used.
#[derive(Debug)]
pub enum FileProblem {
    /// It could not be opened or read, or is no file, or is too big.
    File(Problem),
    /// Others may read it (the mode, for the message).
    Exposed(u32),
    /// What it holds is wrong.
    Content(String),
}

impl fmt::Display for FileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileProblem::File(Problem::NotAFile(kind)) => write!(f, "is {kind}, not a file"),
            FileProblem::File(problem) => write!(f, "{problem}"),
            FileProblem::Exposed(mode) => write!(
                f,
                "readable by others (mode {mode:04o}); allow its owner alone (chmod 600)"
            ),
            FileProblem::Content(reason) => write!(f, "{reason}"),
        }
    }
}

impl FileProblem {
    /// True when the file is there but unusable as it is (bad input, exit
    /// status 2), false when reading it failed (exit status 1).
    pub(super) fn is_bad_input(&self) -> bool {
        match self {
            FileProblem::File(problem) => problem.is_bad_input(),
            FileProblem::Exposed(_) | FileProblem::Content(_) => true,
        }
    }
}

/// Reads a small regular file whole, as text ([`files::read_whole`]);
/// `private` also refuses a file others may read.
pub(super) fn read_small(path: &Path, cap: u64, private: bool) -> Result<String, FileProblem> {
    if private {
        let (file, _) = files::open(path).map_err(FileProblem::File)?;
        let mode = file
            .metadata()
            .map_err(|error| FileProblem::File(Problem::Io(error)))?
            .permissions()
            .mode()
            & 0o777;
        if mode & 0o077 != 0 {
            return Err(FileProblem::Exposed(mode));
        }
    }
    let bytes = files::read_whole(path, cap).map_err(FileProblem::File)?;
    String::from_utf8(bytes).map_err(|_| FileProblem::Content("not text".to_string()))
}

/// The host key in `text`: an ed25519 key in OpenSSH's format, without a
/// passphrase.
fn parse_host_key(text: &str) -> Result<PrivateKey, FileProblem> {
    let content = |reason: &str| Err(FileProblem::Content(reason.to_string()));
    if text.trim().is_empty() {
        return content("empty; remove it and a new key is made at the next start");
    }
    let Ok(key) = PrivateKey::from_openssh(text) else {
        return content(
            "not an OpenSSH private key (ssh-keygen -t ed25519 -f FILE makes one; or remove it and a new key is made)",
        );
    };
    if key.is_encrypted() {
        return content(
            "protected by a passphrase; the server needs a key it can read unattended \
             (ssh-keygen -p -N '' -f FILE removes it)",
        );
    }
    if key.algorithm() != Algorithm::Ed25519 {
        return Err(FileProblem::Content(format!(
            "an {} key; the server's key is ed25519 (ssh-keygen -t ed25519 -f FILE makes one)",
            key.algorithm()
        )));
    }
    Ok(key)
}

/// Makes the folders of `dir` that are missing, each readable by its
/// owner alone whatever the umask; folders already there are left as they are.
pub(super) fn make_private_dirs(dir: &Path) -> io::Result<()> {
    let missing: Vec<&Path> = dir
        .ancestors()
        .take_while(|folder| !folder.as_os_str().is_empty() && fs::metadata(folder).is_err())
        .collect();
    for folder in missing.into_iter().rev() {
        match DirBuilder::new().mode(0o700).create(folder) {
            Ok(()) => fs::set_permissions(folder, Permissions::from_mode(0o700))?,
            // Another server made it at the same moment.
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

/// The key at `path`, made there first (mode 0600, in folders of mode 0700)
/// if there is none.
pub(super) fn load_or_create(path: &Path) -> Result<PrivateKey, ServeError> {
    let failed = |problem: FileProblem| ServeError::HostKey {
        path: path.to_path_buf(),
        problem,
    };
    match read_small(path, MAX_HOST_KEY, true) {
        Ok(text) => return parse_host_key(&text).map_err(failed),
        Err(FileProblem::File(problem)) if problem.is_missing() => {}
        Err(problem) => return Err(failed(problem)),
    }
    let content = |e: &dyn fmt::Display| failed(FileProblem::Content(e.to_string()));
    let key = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).map_err(|e| content(&e))?;
    let text = key.to_openssh(LineEnding::LF).map_err(|e| content(&e))?;
    if let Some(dir) = path.parent() {
        make_private_dirs(dir).map_err(|e| failed(FileProblem::File(Problem::Io(e))))?;
    }
    let created = files::write_whole(
        path,
        Existing::Refuse,
        files::Permissions::New(0o600),
        |out| out.write_all(text.as_bytes()),
    );
    match created {
        Ok(()) => Ok(key),
        // Another server made it at the same moment: use that one.
        Err(Problem::Exists) => {
            let text = read_small(path, MAX_HOST_KEY, true).map_err(failed)?;
            parse_host_key(&text).map_err(failed)
        }
        Err(problem) => Err(failed(FileProblem::File(problem))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_foreign_and_other_kinds_of_keys_are_refused_in_words() {
        let said = |text: &str| match parse_host_key(text) {
            Err(FileProblem::Content(reason)) => reason,
            other => panic!("{other:?}"),
        };
        assert!(said("").starts_with("empty"));
        assert!(said("\0\0\0").starts_with("not an OpenSSH private key"));
        let ecdsa = PrivateKey::random(
            &mut rand::rng(),
            Algorithm::Ecdsa {
                curve: russh::keys::EcdsaCurve::NistP256,
            },
        )
        .unwrap();
        let text = ecdsa.to_openssh(LineEnding::LF).unwrap();
        assert!(
            said(&text).contains("the server's key is ed25519"),
            "{}",
            said(&text)
        );
    }

    #[test]
    fn fifos_and_devices_are_refused_without_reading() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        let refused = |path: &Path| match read_small(path, MAX_HOST_KEY, false) {
            Err(problem @ FileProblem::File(Problem::NotAFile(_))) => problem.to_string(),
            other => panic!("{other:?}"),
        };
        assert_eq!(refused(&fifo), "is a named pipe, not a file");
        assert_eq!(refused(Path::new("/dev/zero")), "is a device, not a file");
        assert_eq!(refused(dir.path()), "is a folder, not a file");
    }
}
