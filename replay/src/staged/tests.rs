//! Each way an output could destroy something, and what `write` and `distinct` do
//! instead.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{Clash, StageError, distinct, tmp_path, write};

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("replay-staged-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn put(path: &Path, text: &str) -> Result<(), StageError> {
    write(path, |mut file, tmp| {
        file.write_all(text.as_bytes()).map_err(|source| StageError { path: tmp.to_owned(), source })
    })
}

#[test]
fn a_regular_file_is_replaced_whole_and_no_tmp_stays() {
    let dir = folder("regular");
    let path = dir.join("out.log");
    put(&path, "first").unwrap();
    put(&path, "second").unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "second");
    assert!(!tmp_path(&path).exists());
}

#[test]
fn a_failed_write_leaves_the_old_file_and_no_tmp() {
    let dir = folder("failed");
    let path = dir.join("out.log");
    put(&path, "kept").unwrap();
    let failed: Result<(), StageError> = write(&path, |_, tmp| Err(StageError::new(tmp, "planted failure")));
    assert!(failed.is_err());
    assert_eq!(fs::read_to_string(&path).unwrap(), "kept");
    assert!(!tmp_path(&path).exists());
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_stays_a_link_and_its_target_is_written() {
    let dir = folder("link");
    let target = dir.join("real.log");
    put(&target, "old").unwrap();
    let link = dir.join("link.log");
    std::os::unix::fs::symlink("real.log", &link).unwrap();
    put(&link, "new").unwrap();
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(fs::read_to_string(&target).unwrap(), "new");
    // A dangling link: its target is created, the link kept.
    let dangling = dir.join("dangling.log");
    std::os::unix::fs::symlink("later.log", &dangling).unwrap();
    put(&dangling, "made").unwrap();
    assert!(fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
    assert_eq!(fs::read_to_string(dir.join("later.log")).unwrap(), "made");
}

#[cfg(unix)]
#[test]
fn a_character_device_is_written_through_never_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = folder("device");
    let device = dir.join("null");
    // A copy of /dev/null (major 1, minor 3) in a folder of our own: made as root, as
    // CI runs; elsewhere the FIFO test below covers the write-through path.
    let made = Command::new("mknod").arg(&device).args(["c", "1", "3"]).status().is_ok_and(|s| s.success());
    if !made {
        eprintln!("note: mknod needs root; the device case was not tried");
        return;
    }
    put(&device, "discarded").unwrap();
    assert!(fs::metadata(&device).unwrap().file_type().is_char_device());
    assert!(!tmp_path(&device).exists());
}

#[cfg(unix)]
#[test]
fn a_fifo_is_written_through() {
    use std::os::unix::fs::FileTypeExt;
    let dir = folder("fifo");
    let fifo = dir.join("pipe");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut text = String::new();
            fs::File::open(fifo).unwrap().read_to_string(&mut text).unwrap();
            text
        })
    };
    put(&fifo, "through the pipe").unwrap();
    assert_eq!(reader.join().unwrap(), "through the pipe");
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn a_directory_is_refused() {
    let dir = folder("directory");
    let error = put(&dir, "x").unwrap_err();
    assert!(error.to_string().contains("is a directory"), "{error}");
}

#[test]
fn someone_elses_tmp_file_is_never_truncated() {
    let dir = folder("foreign-tmp");
    let path = dir.join("out.log");
    fs::write(tmp_path(&path), "not ours").unwrap();
    let error = put(&path, "x").unwrap_err();
    assert!(error.to_string().contains("already exists"), "{error}");
    assert_eq!(fs::read_to_string(tmp_path(&path)).unwrap(), "not ours");
    assert!(!path.exists());
}

#[test]
fn an_output_equal_to_an_input_is_refused_however_spelled() {
    let dir = folder("input");
    let trace = dir.join("trace.swf");
    fs::write(&trace, "data").unwrap();
    let spelled = dir.join(".").join("trace.swf");
    let clash = distinct(&[("--trace", &trace)], &[("--log", &spelled)]).unwrap_err();
    assert!(matches!(clash, Clash::Input { .. }));
    assert!(clash.to_string().contains("--log") && clash.to_string().contains("--trace"), "{clash}");
    #[cfg(unix)]
    {
        let link = dir.join("link.swf");
        std::os::unix::fs::symlink(&trace, &link).unwrap();
        assert!(distinct(&[("--trace", &trace)], &[("--log", &link)]).is_err());
    }
    assert_eq!(fs::read_to_string(&trace).unwrap(), "data");
}

#[test]
fn two_outputs_on_one_new_file_are_refused_but_not_on_dev_null() {
    let dir = folder("outputs");
    let new = dir.join("same.out");
    let other = dir.join("sub").join("..").join("same.out");
    fs::create_dir_all(dir.join("sub")).unwrap();
    let clash = distinct(&[], &[("--log", &new), ("--jobs-out", &other)]).unwrap_err();
    assert!(matches!(clash, Clash::Outputs { .. }), "{clash}");
    assert!(clash.to_string().contains("--jobs-out"), "{clash}");
    assert_eq!(distinct(&[], &[("--log", &new), ("--jobs-out", &dir.join("other.out"))]), Ok(()));
    #[cfg(unix)]
    assert_eq!(
        distinct(&[], &[("--log", Path::new("/dev/null")), ("--jobs-out", Path::new("/dev/null"))]),
        Ok(())
    );
}

#[test]
fn a_registered_input_is_never_written_over_through_any_spelling() {
    let dir = folder("protected");
    let input = dir.join("sweep.csv");
    fs::write(&input, "trace").unwrap();
    distinct(&[("--trace", &input)], &[]).unwrap();
    let spelled = dir.join(".").join("sweep.csv");
    let error = put(&spelled, "rows").unwrap_err().to_string();
    assert!(
        error.contains("is the same file as --trace") && error.contains("an input of this run"),
        "{error}"
    );
    #[cfg(unix)]
    {
        let link = dir.join("link.csv");
        std::os::unix::fs::symlink("sweep.csv", &link).unwrap();
        assert!(put(&link, "rows").is_err());
    }
    assert_eq!(fs::read_to_string(&input).unwrap(), "trace");
    assert!(!tmp_path(&input).exists());
    put(&dir.join("other.csv"), "rows").unwrap();
}

#[test]
fn a_file_given_twice_as_input_is_found_by_any_spelling() {
    let dir = folder("repeated");
    let (a, b) = (dir.join("a.swf"), dir.join("b.swf"));
    fs::write(&a, "a").unwrap();
    fs::write(&b, "b").unwrap();
    let again = dir.join("..").join(dir.file_name().unwrap()).join("a.swf");
    assert_eq!(super::repeated(&[("--trace", &a), ("--trace", &b)]), None);
    let found = super::repeated(&[("--trace", &a), ("--trace", &b), ("--trace", &again)]);
    assert_eq!(found, Some((("--trace", a.as_path()), ("--trace", again.as_path()))));
}
