//! MPI programs (issue 46): a driver runs on every rank of `mpirun -np N`, each rank printing
//! to a file of its own; the checks are made per rank (tangent vs divided differences, the
//! perturbation being the same direction on every rank: one global direction) and the
//! dot-product test sums its two sides over the ranks, since a message moves a derivative
//! from one rank to another.

use radtap_il::Lang;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The C driver `text` made an MPI program: `MPI_Init` first, each rank's output to
/// `rank<R>.out` in the working directory, `MPI_Finalize` before the end. A Fortran driver
/// becomes a subroutine that a new main program calls between `mpi_init` and
/// `mpi_finalize`, its unit 6 connected to the rank's file.
pub fn wrap_driver(text: &str, lang: Lang) -> Option<String> {
    if lang == Lang::Fortran {
        let (head, tail) = (
            "program radtap_validate_driver\n",
            "end program radtap_validate_driver\n",
        );
        if !text.contains(head) || !text.contains(tail) {
            return None;
        }
        let mut s = text
            .replace(head, "subroutine radtap_driver_body\n")
            .replace(tail, "end subroutine radtap_driver_body\n");
        s.push_str(
            "program radtap_validate_driver\n  use mpi\n  implicit none\n  integer :: radtap_ierr, radtap_rank\n  character(len=32) :: radtap_out\n  call mpi_init(radtap_ierr)\n  call mpi_comm_rank(mpi_comm_world, radtap_rank, radtap_ierr)\n  write(radtap_out, '(a,i0,a)') 'rank', radtap_rank, '.out'\n  open(unit=6, file=trim(radtap_out), status='replace')\n  call radtap_driver_body()\n  flush(6)\n  call mpi_finalize(radtap_ierr)\nend program radtap_validate_driver\n",
        );
        return Some(s);
    }
    let main = "int main(void) {\n";
    let at = text.find(main)? + main.len();
    let end = text.rfind("  return 0;\n}\n")?;
    let mut s = String::with_capacity(text.len() + 400);
    s.push_str("#include <mpi.h>\n");
    s.push_str(&text[..at]);
    s.push_str(
        "  MPI_Init(NULL, NULL);\n  {\n    int radtap_rank;\n    char radtap_out[32];\n    MPI_Comm_rank(MPI_COMM_WORLD, &radtap_rank);\n    snprintf(radtap_out, sizeof radtap_out, \"rank%d.out\", radtap_rank);\n    if (!freopen(radtap_out, \"w\", stdout))\n      return 1;\n  }\n",
    );
    s.push_str(&text[at..end]);
    s.push_str("  fflush(stdout);\n  MPI_Finalize();\n  return 0;\n}\n");
    Some(s)
}

/// Whether `mpicc` and `mpirun` run here.
pub fn available() -> bool {
    ["mpicc", "mpirun"].iter().all(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// Compiles radtap's MPI layer (`adMPI.c`, which it writes into `dir`) with `mpicc`; returns
/// the object.
pub fn layer_object(dir: &Path) -> Result<PathBuf, String> {
    radtap_runtime_stack::write_mpi_to(dir).map_err(|e| format!("writing adMPI.c: {e}"))?;
    let obj = dir.join("adMPI.o");
    let o = Command::new("mpicc")
        .current_dir(dir)
        .args(["-O2", "-c", "adMPI.c", "-o", "adMPI.o"])
        .output()
        .map_err(|e| format!("mpicc: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "adMPI.c does not compile:\n{}",
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    Ok(obj)
}

/// The `mpirun` command for `np` ranks: allowed as root, more ranks than cores, shared
/// memory and loopback transports only (no network in a sandbox).
pub fn mpirun(np: u32) -> Command {
    let mut c = Command::new("mpirun");
    c.args(["--allow-run-as-root", "--oversubscribe", "-np"])
        .arg(np.to_string())
        .args(["--mca", "btl", "self,vader"])
        .args(["--mca", "btl_vader_single_copy_mechanism", "none"])
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1")
        .env("OMPI_MCA_plm_rsh_agent", "")
        .env("PMIX_MCA_gds", "hash");
    c
}

/// Runs `exe` (a driver made by [`wrap_driver`]) in `dir` on `np` ranks within `timeout`;
/// returns each rank's output.
pub fn run(dir: &Path, exe: &Path, np: u32, timeout: Duration) -> Result<Vec<String>, String> {
    for r in 0..np {
        let _ = std::fs::remove_file(dir.join(format!("rank{r}.out")));
    }
    let err_path = dir.join("mpirun.err");
    let err = std::fs::File::create(&err_path).map_err(|e| format!("{e}"))?;
    let mut child = mpirun(np)
        .arg(exe)
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .stderr(err)
        .spawn()
        .map_err(|e| format!("cannot run mpirun: {e}"))?;
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "mpirun -np {np} {} did not finish within {} s (a message without its partner waits forever)",
                    exe.display(),
                    timeout.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("waiting for mpirun: {e}")),
        }
    };
    if !status.success() {
        let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
        let tail: Vec<&str> = stderr.lines().take(20).collect();
        return Err(format!(
            "mpirun -np {np} {} stopped with {status}\n{}",
            exe.display(),
            tail.join("\n")
        ));
    }
    (0..np)
        .map(|r| {
            std::fs::read_to_string(dir.join(format!("rank{r}.out")))
                .map_err(|e| format!("rank {r} wrote no output: {e}"))
        })
        .collect()
}
