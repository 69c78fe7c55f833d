//! The service's temporary area: one directory per running service under the system's
//! temporary directory (`radtap-serve-PID-N`), and in it one private directory per request,
//! holding the submitted files while the preprocessor reads them. A request's directory is
//! removed when the request is done (a panic included: it is removed on unwinding), the
//! area when it is empty and when the service stops, so a service leaves nothing behind.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Numbers the areas of one process (tests start several services).
static AREAS: AtomicU64 = AtomicU64::new(0);

/// The temporary area of one service.
#[derive(Debug)]
pub struct Area {
    dir: PathBuf,
    next: AtomicU64,
}

impl Default for Area {
    fn default() -> Self {
        Area::new()
    }
}

impl Area {
    /// A new area under the system's temporary directory (created with its first request).
    pub fn new() -> Area {
        let n = AREAS.fetch_add(1, Ordering::Relaxed);
        Area {
            dir: std::env::temp_dir().join(format!("radtap-serve-{}-{n}", std::process::id())),
            next: AtomicU64::new(0),
        }
    }

    /// The area's directory (it exists only while a request uses it).
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// A new private directory (mode 0700) holding `files` (name, content): the names were
    /// checked (plain names, no `..`, no leading dot).
    pub fn request_dir<'a>(
        &self,
        files: impl IntoIterator<Item = (&'a String, &'a String)>,
    ) -> io::Result<RequestDir> {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let path = self.dir.join(n.to_string());
        // Another request may remove the empty area between its creation and ours: again.
        let mut made = Err(io::Error::other("not tried"));
        for _ in 0..8 {
            made = private_dir(&self.dir).and_then(|()| private_dir(&path));
            if made.is_ok() {
                break;
            }
        }
        made?;
        let dir = RequestDir {
            path,
            area: self.dir.clone(),
        };
        for (name, content) in files {
            std::fs::write(dir.path.join(name), content)?;
        }
        Ok(dir)
    }
}

impl Drop for Area {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Creates `dir` readable by this user only, if it does not exist.
fn private_dir(dir: &Path) -> io::Result<()> {
    let mut b = std::fs::DirBuilder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(0o700);
    }
    match b.create(dir) {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists && dir.is_dir() => Ok(()),
        r => r,
    }
}

/// One request's directory, removed (with the area, when it is then empty) on drop.
#[derive(Debug)]
pub struct RequestDir {
    path: PathBuf,
    area: PathBuf,
}

impl RequestDir {
    /// Where the files are.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for RequestDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
        // Fails while another request has its directory there.
        let _ = std::fs::remove_dir(&self.area);
    }
}

#[cfg(test)]
mod tests {
    use super::Area;

    #[test]
    fn a_request_leaves_nothing_behind() {
        let area = Area::new();
        let (name, text) = ("f.c".to_string(), "int x;\n".to_string());
        let a = area.request_dir([(&name, &text)]).expect("a directory");
        let b = area.request_dir([(&name, &text)]).expect("another");
        assert_ne!(a.path(), b.path());
        assert!(a.path().starts_with(area.path()));
        assert_eq!(
            std::fs::read_to_string(a.path().join("f.c")).expect("f.c"),
            text
        );
        let (pa, pb) = (a.path().to_path_buf(), b.path().to_path_buf());
        drop(a);
        assert!(!pa.exists() && pb.exists() && area.path().exists());
        drop(b);
        assert!(
            !pb.exists() && !area.path().exists(),
            "the empty area is removed"
        );
        let c = area.request_dir([(&name, &text)]).expect("again");
        let pc = c.path().to_path_buf();
        std::mem::forget(c);
        let top = area.path().to_path_buf();
        drop(area);
        assert!(
            !pc.exists() && !top.exists(),
            "the area goes with the service"
        );
    }
}
