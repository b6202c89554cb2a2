"""The cluster profile on a real SLURM scheduler: a single-node cluster started on this
machine by tests/slurm/cluster.sh (Debian's packages), the tiny workflow submitted through
--profile profiles/slurm, and its results compared with a local run of the same config.

Skips, saying why, where SLURM cannot be started (not root, no apt-get and no SLURM)."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import threading
from pathlib import Path

import pandas as pd
import pytest
import userenv
import yaml
from paths import REPO
from wfutil import without_analyses

from learnability.pipeline.planning import planned_jobs

# the cluster run mostly waits on the plugin's status checks (about 6 minutes)
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]

CLUSTER = REPO / "tests" / "slurm" / "cluster.sh"


@pytest.fixture(scope="module")
def slurm():
    if os.geteuid() != 0:
        pytest.skip("starting slurmctld, slurmd and munged needs root")
    if shutil.which("slurmctld") is None and shutil.which("apt-get") is None:
        pytest.skip("SLURM is not installed and there is no apt-get to install it")
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        pytest.skip("pip install snakemake-executor-plugin-slurm (it is in the dev extra)")
    started = subprocess.run(
        ["bash", str(CLUSTER), "start"], capture_output=True, text=True, timeout=600
    )
    if started.returncode != 0:
        pytest.skip(f"SLURM could not start here: {(started.stdout + started.stderr)[-2000:]}")
    yield
    subprocess.run(["bash", str(CLUSTER), "stop"], capture_output=True, timeout=120)
    # the client config goes with the cluster: left behind with no controller, it made
    # every later Snakemake start with the SLURM plugin wait 9 s on `scontrol show config`
    conf = Path("/etc/slurm/slurm.conf")
    assert not conf.exists() or "tests/slurm/cluster.sh" not in conf.read_text()


def small_config() -> dict:
    """Few jobs (each SLURM job costs seconds of scheduling): one trained embedding, its
    random baseline, one list, uniform negatives."""
    cfg = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    cfg["training"].update(dim=16, epochs=1)
    cfg["embeddings"] = {
        "word2vec": {"method": "word2vec"},
        "random": {"method": "random", "reference": "word2vec", "seed": 7},
    }
    cfg["compare"]["embeddings"] = ["word2vec", "random"]
    cfg["wordlists"] = {"dir": "lists", "dictionaries": []}
    cfg["learnability"].update(iterations=4, negatives=["uniform"], learning_curve=[])
    cfg["random_lists"].update(lists=4, iterations=3, sizes=[60], match_sizes=False)
    cfg["codelength"] = {"enabled": False}  # two more SLURM jobs, nothing SLURM-specific
    without_analyses(cfg)  # the same: their jobs run in the smoke run
    cfg["report"] = {"table_size": 60}
    # one evaluation (a job per embedding and the summary) keeps the cluster run short
    cfg["evaluations"] = {
        "multi_answer": {"files": [str(REPO / "resources/similarity/multi-answer.txt")]},
        "analogy": {"files": []},
        "word_pairs": {"files": []},
        "hierarchy": {"files": []},
        "pseudo": {"enabled": False},
    }
    return cfg


def workdir(path: Path) -> Path:
    path.mkdir()
    shutil.copytree(REPO / "workflow", path / "workflow")
    shutil.copytree(REPO / "profiles", path / "profiles")
    (path / "config").mkdir()
    (path / "config" / "config.yaml").write_text(yaml.safe_dump(small_config(), sort_keys=False))
    (path / "lists").mkdir()
    shutil.copy(REPO / "resources" / "wordlists" / "family.txt", path / "lists")
    return path


def snakemake(
    path: Path, *args: str, timeout: int, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """Snakemake in the environment the README's cluster command has: `make run`'s plus
    the slurm extra (`pip install -e '.[slurm]'`), and the variables in ``env``."""
    # `timeout` turns a hang (a status query that never returns) into a failure
    return subprocess.run(
        ["timeout", str(timeout), userenv.python(("slurm",)), "-m", "snakemake", *args],
        cwd=path,
        env=dict(userenv.env_vars(userenv.user_env(("slurm",))), PYTHONHASHSEED="0", **(env or {})),
        capture_output=True,
        text=True,
    )


def readme_cluster_command() -> list[str]:
    """The README's cluster command, `SBATCH_PARTITION=YOURS snakemake --profile ...`,
    without its variable and its --configfile (the tests give their own config)."""
    page = (REPO / "docs/how-to/cluster.md").read_text(encoding="utf-8")
    (line,) = re.findall(r"^SBATCH_PARTITION=YOURS (snakemake --profile .*)$", page, re.M)
    words = line.split()
    i = words.index("--configfile")
    return words[:i] + words[i + 2 :]


# a failed job's log, which the profile's show-failed-logs prints between two rules of
# '=' after "Logfile PATH:": a SLURM job's log holds the in-job Snakemake's own lines
SHOWN_LOG = re.compile(r"^Logfile [^\n]*:\n(=+)\n.*?^\1$", re.M | re.S)


def job_resources(log: str) -> list[str]:
    """The `resources:` line of every job a (dry) run scheduled (not those in the logs it
    showed of failed jobs)."""
    return re.findall(r"^\s+resources: (.*)$", SHOWN_LOG.sub("", log), re.M)


def test_the_readme_cluster_command_keeps_the_profiles_defaults(tmp_path):
    """No SLURM needed: a dry run of the README's command gives every job its model's
    memory, runtime and disk (tests/test_cluster_plan.py checks them at enwiki's size),
    CPUs from its threads (no cpus_per_task) and the partition from SBATCH_PARTITION, and
    the profile keeps going past a failed job (profiles/default, read beside it, does not
    turn that off) and runs at most two downloads at once. Passing --default-resources
    instead would drop the whole block."""
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        pytest.skip("pip install snakemake-executor-plugin-slurm (it is in the dev extra)")
    wd = workdir(tmp_path / "wf")
    env = {"SBATCH_PARTITION": "YOURS", "LEARNABILITY_TMPDIR": str(tmp_path / "scratch")}
    dry = snakemake(wd, *readme_cluster_command()[1:], "-n", "--slurm-no-account",
                    env=env, timeout=300)  # fmt: skip
    assert dry.returncode == 0, (dry.stdout + dry.stderr)[-3000:]
    resources = job_resources(dry.stdout)
    assert len(resources) > 10
    for r in resources:
        assert "slurm_partition=YOURS" in r and f"tmpdir={tmp_path / 'scratch'}," in r, r
        assert "cpus_per_task" not in r, r  # the plugin gives a job its threads
        assert all(f"{key}=" in r for key in ("mem_mb", "runtime", "disk_mb")), r
    # most are known before any job ran (a job whose inputs are yet to be made waits)
    assert sum("mem_mb=<TBD>" not in r for r in resources) > 5
    check = (
        "from snakemake.cli import parse_args\n"
        "_, a = parse_args(['--profile', 'profiles/slurm', '-n'])\n"
        "print(a.keep_going, a.retries, a.rerun_incomplete, a.resources['download'].value)"
    )
    got = subprocess.run([userenv.python(("slurm",)), "-c", check], cwd=REPO,
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert got.stdout.split() == ["True", "1", "True", "2"], got.stdout + got.stderr[-2000:]
    # the download holds one of the two download slots (a local rule: see the cluster run)
    fetch = re.search(r"^rule fetch_dump:\n(?:\s+.*\n)*?\s+resources: (.*)$", dry.stdout, re.M)
    assert fetch and "download=1" in fetch.group(1), dry.stdout[-3000:]


# the jobs killed partway: SLURM comment (the plugin's rule_{rule}_wildcards_{...}) -> the
# log their script writes once it runs
VICTIMS = {
    "rule_train_embedding_wildcards_word2vec": "logs/train_embedding/word2vec.log",
    "rule_null_distribution_wildcards_word2vec_uniform_size-60": (
        "logs/null_distribution/word2vec/uniform/size-60.log"
    ),
}


class JobKiller(threading.Thread):
    """Watches squeue; SIGKILLs (scancel --signal=KILL --full: the batch script and every
    step) the first running job of each victim once its log has content, once."""

    def __init__(self, workdir: Path, victims: dict[str, str]):
        super().__init__(daemon=True)
        self.workdir, self.victims = workdir, dict(victims)
        self.killed: dict[str, str] = {}
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.1) and len(self.killed) < len(self.victims):
            queue = subprocess.run(
                ["squeue", "-h", "-t", "RUNNING", "-o", "%i|%k"], capture_output=True, text=True
            ).stdout
            for line in queue.splitlines():
                jobid, _, comment = (part.strip() for part in line.partition("|"))
                log = self.victims.get(comment)
                if log is None or comment in self.killed:
                    continue
                path = self.workdir / log
                if path.exists() and path.stat().st_size > 0:
                    subprocess.run(["scancel", "--signal=KILL", "--full", jobid], check=True)
                    self.killed[comment] = jobid

    def stop(self) -> dict[str, str]:
        self.done.set()
        self.join()
        return self.killed


# what the two runs are compared on, and their targets: the figures after them would be
# five more SLURM jobs (30 CPU s of in-job Snakemake and plotting) with nothing
# SLURM-specific in them (the dry run above plans the README's whole command)
COMPARED = [
    "results/learnability/word2vec/family/uniform/iterations.parquet",
    "results/learnability/random/family/uniform/iterations.parquet",
    "results/null/word2vec/uniform/size-60.parquet",
    "results/stats/wilcoxon.parquet",
    "results/evaluations/word2vec/multi_answer.parquet",
    "results/evaluations/scores.parquet",
]
TABLE = "results/tables/uniform/table6.md"


def test_the_slurm_profile_runs_the_workflow_with_the_local_results(slurm, tmp_path):
    # The local reference run goes on beside the cluster run: that one mostly waits on
    # the plugin's status checks (which back off by 10 s per round without a finished
    # job), so the two together take little more than the cluster run alone.
    local = workdir(tmp_path / "local")
    local_run = subprocess.Popen(
        ["timeout", "900", userenv.python(), "-m", "snakemake", "--cores", "1", *COMPARED, TABLE],
        cwd=local,
        env=dict(userenv.env_vars(userenv.user_env()), PYTHONHASHSEED="0"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )

    cluster = workdir(tmp_path / "cluster")
    # two jobs are killed partway, as an out-of-memory kill or a lost node would: a
    # training job and a null job, SIGKILL to the whole job once its script has begun
    # writing its log; the profile's retry must then give the clean run's tables
    killer = JobKiller(cluster, VICTIMS)
    killer.start()
    done = snakemake(
        cluster,
        *COMPARED,
        TABLE,
        *readme_cluster_command()[1:],
        "--slurm-no-account",
        # the test's own: quicker status checks and file waits, and one training thread
        # (word2vec is bit-reproducible only on one)
        "--slurm-init-seconds-before-status-checks",
        "2",
        "--set-threads",
        "train_embedding=1",
        "--latency-wait",
        "5",
        env={"SBATCH_PARTITION": "debug"},
        timeout=1500,
    )
    killed = killer.stop()
    out = done.stdout + done.stderr
    _, local_err = local_run.communicate()
    assert sorted(killed) == sorted(VICTIMS), (killed, out[-3000:])
    for rule, jobid in killed.items():
        state = subprocess.run(
            ["squeue", "-h", "-j", jobid, "-t", "all", "-o", "%T"], capture_output=True, text=True
        ).stdout.strip()
        assert state in ("FAILED", "CANCELLED"), (rule, jobid, state)
    # each killed job failed and was submitted again (the profile's retries: 1)
    assert out.count("Trying to restart job") >= 2, out[-5000:]
    assert local_run.returncode == 0, local_err[-3000:]
    assert done.returncode == 0, out[-5000:]
    submitted = out.count("has been submitted with SLURM jobid")
    assert submitted >= 8, out[-3000:]  # the heavy rules went through sbatch
    assert re.search(r"^localrule fetch_dump:", out, re.M)  # downloads stay on this node
    # the jobs got the partition from SBATCH_PARTITION, and each killed job, retried,
    # more memory and time than its first attempt (its model's, grown by the attempt)
    resources = job_resources(out)
    # (a run on 2026-12-07 once had a line without it, unseen: the message names it now)
    without = [r for r in resources if "slurm_partition=debug" not in r]
    assert resources and not without, (without[:3], out[-5000:])
    attempts: dict = {}
    for job in planned_jobs(SHOWN_LOG.sub("", out)):
        key = (job.rule, tuple(sorted(job.wildcards.items())))
        attempts.setdefault(key, []).append(job.resources)
    for key in (("train_embedding", (("embedding", "word2vec"),)),
                ("null_distribution", (("embedding", "word2vec"), ("key", "size-60"),
                                       ("negatives", "uniform")))):  # fmt: skip
        first, *retried = attempts[key]
        assert retried, (key, attempts[key])
        for field in ("mem_mb", "runtime"):
            assert int(retried[0][field]) > int(first[field]), (key, attempts[key])

    for rel in COMPARED:
        a, b = pd.read_parquet(local / rel), pd.read_parquet(cluster / rel)
        pd.testing.assert_frame_equal(a, b, check_exact=True, obj=rel)
    assert (cluster / TABLE).read_text() == (local / TABLE).read_text()


def test_a_job_over_the_partitions_limit_is_refused_when_the_run_is_planned(slurm, tmp_path):
    """Partition short has a 25-minute limit (tests/slurm/cluster.sh), which the plan reads
    from sinfo: the paper's run at enwiki's corpus size and a 20,000-word vocabulary
    planned for it stops on fastText, whose start and one epoch between checkpoints need
    31 minutes there, in one line that names the job, its need and the limit (word2vec's
    epoch, 22 minutes, and GloVe's, 7, fit; tests/test_cluster_plan.py plans the paper's
    run at 3 M words under LEARNABILITY_TIME_LIMIT: split by checkpoints, refused)."""
    from learnability.pipeline.planning import fake_enwiki, plan

    assert subprocess.run(["sinfo", "-h", "-p", "short", "-o", "%l"], capture_output=True,
                          text=True).stdout.split() == ["25:00"]  # fmt: skip
    folder = tmp_path / "enwiki"
    folder.mkdir()
    fake_enwiki(folder, 20_000, REPO / "resources" / "wordlists", REPO)
    with pytest.raises(RuntimeError) as err:
        plan(REPO, folder, [REPO / "config" / "paper.yaml"], env={"SBATCH_PARTITION": "short"})
    line = ("train_embedding (embedding=fasttext) needs 2.6 h in all and 31 min for its start "
            "and one epoch (or its counting) between checkpoints, over the partition's limit "
            "of 25 min (sinfo, partition short)")  # fmt: skip
    text = str(err.value)
    assert text.count(line) == 1 and "Traceback" not in text, text[-3000:]
