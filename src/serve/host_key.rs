//! The server's identity and its guest list: an ed25519 host key made on
//! first start and kept, and the public keys of `--authorized-keys`.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use russh::keys::ssh_key::public::KeyData;
use russh::keys::ssh_key::{AuthorizedKeys, LineEnding};
use russh::keys::{Algorithm, PrivateKey};

use super::ServeError;

/// `host_key` in the platform's data directory, beside the statistics.
pub(super) fn default_path() -> Option<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "tictactoe")?;
    Some(dirs.data_dir().join("host_key"))
}

/// The key at `path`, made there first (mode 0600) if there is none.
pub(super) fn load_or_create(path: &Path) -> Result<PrivateKey, ServeError> {
    let failed = |error: &dyn std::fmt::Display| ServeError::HostKey {
        path: path.to_path_buf(),
        reason: error.to_string(),
    };
    match fs::read_to_string(path) {
        Ok(text) => return PrivateKey::from_openssh(text).map_err(|e| failed(&e)),
        Err(error) if error.kind() != io::ErrorKind::NotFound => return Err(failed(&error)),
        Err(_) => {}
    }
    let key = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).map_err(|e| failed(&e))?;
    let text = key.to_openssh(LineEnding::LF).map_err(|e| failed(&e))?;
    if let Some(dir) = path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(|e| failed(&e))?;
    }
    let created = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .and_then(|mut file| {
            file.write_all(text.as_bytes())
                .and_then(|()| file.sync_all())
        });
    match created {
        Ok(()) => Ok(key),
        // Another server made it at the same moment: use that one.
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
            let text = fs::read_to_string(path).map_err(|e| failed(&e))?;
            PrivateKey::from_openssh(text).map_err(|e| failed(&e))
        }
        Err(error) => Err(failed(&error)),
    }
}

/// The public keys in an OpenSSH `authorized_keys` file.
pub(super) fn read_authorized(path: &Path) -> Result<Vec<KeyData>, ServeError> {
    let failed = |reason: String| ServeError::AuthorizedKeys {
        path: path.to_path_buf(),
        reason,
    };
    let text = fs::read_to_string(path).map_err(|e| failed(e.to_string()))?;
    let mut keys = Vec::new();
    for (number, entry) in AuthorizedKeys::new(&text).enumerate() {
        let entry = entry.map_err(|e| failed(format!("entry {}: {e}", number + 1)))?;
        keys.push(entry.public_key().key_data().clone());
    }
    if keys.is_empty() {
        return Err(failed("no public keys in it".to_string()));
    }
    Ok(keys)
}
