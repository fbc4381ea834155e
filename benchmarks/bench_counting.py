"""Counting 10^8 judgments: DuckDB (the default engine) against a pyarrow loop and pandas.

Writes a Parquet judgments table (default 10^8 rows: 1,000 generators x 100
validators x 1,000 items, 3 % labels missing; ``JURYCAL_BENCH_ROWS`` scales
it), then counts it in one fresh process per method and reports each one's
time and peak memory (VmHWM from ``/proc/self/status``), with ratios against the
baseline, a pyarrow loop over batches of 10^6 rows adding
``counts_from_judgments`` of each (it catches a duplicate only within a batch).
The others: pandas reading the whole table (a global duplicate check), and
:func:`jurycal.counting.count_files` (DuckDB) with its global duplicate check
under its default 1 GB memory limit (past it DuckDB spills to disk), under 512 MB,
under DuckDB's own default (80 % of memory), and without the check.
Every method must report the same number of labels.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

N_VALIDATORS, N_ITEMS = 100, 1_000
CHUNK = 1_000_000


def write_table(path: Path, n_rows: int, seed: int = 0) -> None:
    """One row group per 10 generators (10 x 100 x 1,000 = 10^6 rows)."""
    rng = np.random.default_rng(seed)
    per_generator = N_VALIDATORS * N_ITEMS
    n_generators = n_rows // per_generator
    generators = pa.array([f"gen-{g:05d}" for g in range(n_generators)])
    validators = pa.array([f"val-{v:03d}" for v in range(N_VALIDATORS)])
    schema = pa.schema(
        [
            ("generator", pa.dictionary(pa.int32(), pa.string())),
            ("item", pa.int32()),
            ("validator", pa.dictionary(pa.int32(), pa.string())),
            ("label", pa.int8()),
        ]
    )
    step = max(1, CHUNK // per_generator)
    with pq.ParquetWriter(path, schema) as writer:
        for start in range(0, n_generators, step):
            gens = np.arange(start, min(start + step, n_generators), dtype=np.int32)
            g = np.repeat(gens, per_generator)
            v = np.tile(np.repeat(np.arange(N_VALIDATORS, dtype=np.int32), N_ITEMS), len(gens))
            item = np.tile(np.arange(N_ITEMS, dtype=np.int32), len(gens) * N_VALIDATORS)
            label = (rng.random(len(g)) < 0.9).astype(np.int8)
            missing = rng.random(len(g)) < 0.03
            batch = pa.record_batch(
                [
                    pa.DictionaryArray.from_arrays(pa.array(g), generators),
                    pa.array(item),
                    pa.DictionaryArray.from_arrays(pa.array(v), validators),
                    pa.array(label, mask=missing),
                ],
                schema=schema,
            )
            writer.write_batch(batch)


PEAK = """
def peak_mib():
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
"""

# Each script gets the path as argv[1], imports before the clock starts and prints
# "seconds peak_MiB labels".
PYARROW_LOOP = """
import sys, time
import pyarrow.parquet as pq
from regression import counts_from_judgments
t = time.perf_counter()
total = 0
with pq.ParquetFile(sys.argv[1]) as parquet:
    for batch in parquet.iter_batches(batch_size=1_000_000):
        total = total + counts_from_judgments(batch.to_pandas())
elapsed = time.perf_counter() - t
print(elapsed, peak_mib(), int(total.n_labelled.to_numpy().sum()))
"""

PANDAS = """
import sys, time
import pandas as pd
from regression import counts_from_judgments
t = time.perf_counter()
counts = counts_from_judgments(pd.read_parquet(sys.argv[1]))
elapsed = time.perf_counter() - t
print(elapsed, peak_mib(), int(counts.n_labelled.to_numpy().sum()))
"""

DUCKDB = """
import sys, time
from jurycal.counting import count_files
t = time.perf_counter()
counts = count_files(sys.argv[1], {options})
elapsed = time.perf_counter() - t
print(elapsed, peak_mib(), int(counts.n_labelled.to_numpy().sum()))
"""

METHODS = [
    ("pyarrow loop, batches of 10^6", "in a batch", PYARROW_LOOP),
    ("pandas, whole table", "global", PANDAS),
    ("DuckDB (memory_limit 1GB)", "global", DUCKDB.format(options="")),
    ("DuckDB, memory_limit 512MB", "global", DUCKDB.format(options="memory_limit='512MB'")),
    ("DuckDB, DuckDB's memory_limit", "global", DUCKDB.format(options="memory_limit=None")),
    ("DuckDB, no duplicate check", "none", DUCKDB.format(options="check_duplicates=False")),
]


def _run(script: str, path: Path) -> tuple[float, float, int]:
    root = Path(__file__).resolve().parent.parent
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
    }
    out = subprocess.run(
        [sys.executable, "-c", PEAK + script, str(path)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    ).stdout.split()
    return float(out[0]), float(out[1]), int(out[2])


def main() -> None:
    n_rows = int(float(os.environ.get("JURYCAL_BENCH_ROWS", "1e8")))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "judgments.parquet"
        t = time.perf_counter()
        write_table(path, n_rows)
        print(
            f"wrote {n_rows:,} rows in {time.perf_counter() - t:.0f} s "
            f"({path.stat().st_size / 2**20:.0f} MiB of Parquet); {os.cpu_count()} cores, "
            f"load average {os.getloadavg()[0]:.1f} before counting\n",
            flush=True,
        )
        rows = [(name, check, *_run(script, path)) for name, check, script in METHODS]
        load = os.getloadavg()[0]
    base_seconds, base_peak = rows[0][2], rows[0][3]
    print(
        f"{'method':<31}{'duplicates':>11}{'seconds':>9}{'rows/s':>13}{'peak MiB':>10}"
        f"{'time x':>8}{'memory x':>10}{'labels':>14}"
    )
    for name, check, seconds, peak, labels in rows:
        print(
            f"{name:<31}{check:>11}{seconds:>9.1f}{n_rows / seconds:>13,.0f}{peak:>10.0f}"
            f"{seconds / base_seconds:>8.2f}{peak / base_peak:>10.2f}{labels:>14,}"
        )
    print(f"\n(x: against the pyarrow loop; load average {load:.1f} after counting)")
    if len({labels for *_, labels in rows}) != 1:
        raise SystemExit("the methods disagree on the number of labels")


if __name__ == "__main__":
    main()
