//! Which file a path names: symbolic links followed ([`follow_links`]), and the
//! check that no output is an input or another output ([`distinct`]).

use std::fs::{self, FileType};
use std::io;
use std::path::{Path, PathBuf};

/// Links followed before a path is called a loop, as the kernel's own limit.
const MAX_LINKS: usize = 40;

/// The path with every symbolic link on it resolved in turn, so that a link's
/// target is what gets written. A path that does not exist (or a dangling link's
/// target) is returned as it stands: it is the file to create.
pub fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_owned();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(folder) if target.is_relative() => folder.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::other(format!("more than {MAX_LINKS} symbolic links in a row (a loop?)")))
}

/// Whether a file of this type is written in place rather than replaced: a
/// character device or a FIFO.
pub fn writes_through(kind: &FileType) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        kind.is_char_device() || kind.is_fifo()
    }
    #[cfg(not(unix))]
    {
        let _ = kind;
        false
    }
}

/// Two paths naming the same file.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Clash {
    #[error(
        "{output} {path} is the same file as {input} {input_path}: an output never replaces an input; name another file"
    )]
    Input { output: String, path: PathBuf, input: String, input_path: PathBuf },
    #[error("{first} {path} and {second} {second_path} name the same file; give each output its own")]
    Outputs { first: String, path: PathBuf, second: String, second_path: PathBuf },
}

/// A path and the option (or argument) that gave it, for the messages.
pub type Named<'a> = (&'a str, &'a Path);

/// The first two of `inputs` that name the same file, if any (a trace given twice).
pub fn repeated<'a>(inputs: &[Named<'a>]) -> Option<(Named<'a>, Named<'a>)> {
    let ids: Vec<Identity> = inputs.iter().map(|&(_, path)| identity(path)).collect();
    (1..inputs.len()).find_map(|j| (0..j).find(|&i| ids[i] == ids[j]).map(|i| (inputs[i], inputs[j])))
}

/// Refuses, before anything is read or written, an output that is one of the inputs
/// or another output (through links, `..`, or another spelling). Two outputs on the
/// same character device (`/dev/null` twice) are allowed: writing there replaces
/// nothing.
pub fn distinct(inputs: &[Named], outputs: &[Named]) -> Result<(), Clash> {
    let inputs: Vec<_> = inputs.iter().map(|&(option, path)| (option, path, identity(path))).collect();
    let mut seen: Vec<(&str, &Path, Identity)> = Vec::with_capacity(outputs.len());
    for &(output, path) in outputs {
        let id = identity(path);
        if let Some((input, input_path, _)) = inputs.iter().find(|(.., other)| *other == id) {
            let (output, input) = (output.to_owned(), (*input).to_owned());
            return Err(Clash::Input {
                output,
                path: path.to_owned(),
                input,
                input_path: input_path.to_path_buf(),
            });
        }
        if let Some((first, first_path, _)) = seen.iter().find(|(.., other)| *other == id)
            && !id.is_device()
        {
            return Err(Clash::Outputs {
                first: (*first).to_owned(),
                path: first_path.to_path_buf(),
                second: output.to_owned(),
                second_path: path.to_owned(),
            });
        }
        seen.push((output, path, id));
    }
    Ok(())
}

/// What makes two paths the same file: device and inode for a file that exists, the
/// canonical folder and the name for one to be created.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Identity {
    Existing { device: u64, inode: u64, writes_through: bool },
    New(PathBuf),
}

impl Identity {
    pub(super) fn is_device(&self) -> bool {
        matches!(self, Self::Existing { writes_through: true, .. })
    }
}

pub(super) fn identity(path: &Path) -> Identity {
    let real = follow_links(path).unwrap_or_else(|_| path.to_owned());
    #[cfg(unix)]
    if let Ok(metadata) = fs::metadata(&real) {
        use std::os::unix::fs::MetadataExt;
        let writes_through = writes_through(&metadata.file_type());
        return Identity::Existing { device: metadata.dev(), inode: metadata.ino(), writes_through };
    }
    let folder = match real.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    match (fs::canonicalize(folder), real.file_name()) {
        (Ok(folder), Some(name)) => Identity::New(folder.join(name)),
        _ => Identity::New(real),
    }
}
