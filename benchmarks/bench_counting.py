"""Counting judgments in bounded memory: the only step whose cost grows with the data.

Writes a Parquet judgments table (default 10^8 rows: 1,000 generators x 100
validators x 1,000 items, 3 % labels missing; ``JURYCAL_BENCH_ROWS`` scales
it), then counts it with ``jurycal.io.count_judgments`` in a fresh process and
reports the time and the process's peak memory. Baselines measured in the same
run: the same streaming count on a tenth of the rows (memory should not grow
with rows), and reading the whole table into pandas before counting (memory
grows with rows).
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


STREAM = """
import resource, sys, time
from jurycal.io import count_judgments
import regression.counts  # imported before the clock starts, as in the baseline
t = time.perf_counter()
counts = count_judgments(sys.argv[1], progress=False)
elapsed = time.perf_counter() - t
rows = int(counts.n_labeled.to_numpy().sum())
print(elapsed, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, rows)
"""

WHOLE = """
import resource, sys, time
import pandas as pd
from regression.counts import counts_from_judgments
t = time.perf_counter()
counts = counts_from_judgments(pd.read_parquet(sys.argv[1]))
elapsed = time.perf_counter() - t
rows = int(counts.n_labeled.to_numpy().sum())
print(elapsed, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, rows)
"""


def _run(script: str, path: Path) -> tuple[float, float, int]:
    out = subprocess.run(
        [sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True
    ).stdout.split()
    return float(out[0]), float(out[1]), int(out[2])


def main() -> None:
    n_rows = int(float(os.environ.get("JURYCAL_BENCH_ROWS", "1e8")))
    small_rows = max(N_VALIDATORS * N_ITEMS, n_rows // 10)
    with tempfile.TemporaryDirectory() as tmp:
        big, small = Path(tmp) / "big.parquet", Path(tmp) / "small.parquet"
        t = time.perf_counter()
        write_table(big, n_rows)
        write_table(small, small_rows)
        print(f"wrote {n_rows:,} + {small_rows:,} rows in {time.perf_counter() - t:.0f} s "
              f"({big.stat().st_size / 2**20:.0f} MiB of Parquet)\n")
        rows = [
            ("streamed, chunks of 10^6", n_rows, *_run(STREAM, big)),
            ("streamed, chunks of 10^6", small_rows, *_run(STREAM, small)),
            ("whole table in pandas", small_rows, *_run(WHOLE, small)),
        ]
    print(f"{'method':<26}{'rows':>14}{'seconds':>9}{'rows/s':>13}{'peak MiB':>10}{'labelled':>14}")
    for name, n, seconds, peak, labelled in rows:
        print(f"{name:<26}{n:>14,}{seconds:>9.1f}{n / seconds:>13,.0f}{peak:>10.0f}{labelled:>14,}")
    stream_big, stream_small, whole_small = rows
    print(
        f"\npeak memory, streamed {n_rows:,} rows / streamed {small_rows:,}: "
        f"{stream_big[3] / stream_small[3]:.2f}x (bounded: about 1x for {n_rows // small_rows}x the rows)"
    )
    print(
        f"peak memory, whole table / streamed, both {small_rows:,} rows: "
        f"{whole_small[3] / stream_small[3]:.1f}x"
    )


if __name__ == "__main__":
    main()
