#!/usr/bin/env python3
"""Damaged and contended search checkpoints (docs/Fuzzing.md, issue 25).

    checkpoint-campaign.py MIRAGE_OPT WORK_DIR [--seed N] [--trials N]
                           [--time-limit S] [--slack S]

Makes a real checkpoint (mirage-superoptimize with `checkpoint=` on a small
program), then runs trials against it, each a resumed search in a process
of its own:

- damaged: the file truncated, bytes flipped, spans deleted or duplicated,
  emptied, replaced by JSON that is no checkpoint of this search (another
  format, version 1, the checksum dropped, an array, 100,000 nested
  arrays), random bytes, a byte-order mark before it, or the path made a
  directory or a symbolic-link loop. The search must end with an error diagnostic naming the
  checkpoint, or succeed ignoring nothing it should trust; the damaged file
  must be left byte for byte as it was (a user may still want it).
- contended: two or three searches of different functions resume from and
  write to one valid checkpoint at once. All must succeed, and afterwards
  the file must hold every function's entry and resume cleanly.

Every trial must end within --time-limit plus --slack seconds, with no
abort and no signal. Prints one line per trial and a summary line
`checkpoint campaign: N trials, M failed`; exits 1 when any failed.
"""

import argparse
import json
import os
import pathlib
import random
import shutil
import subprocess
import sys
import time

#: Two small programs (their searches take well under a second) of different
#: functions, so that concurrent searches write different entries.
PROGRAMS = {
    "scale_exp": """func.func @scale_exp(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %e = mirage_kernel.exp %x : tensor<64x256xf16>
  %s = mirage_kernel.reduction %e dim 1 : tensor<64x256xf16> -> tensor<64x1xf16>
  %p = mirage_kernel.div %e, %s : tensor<64x256xf16>, tensor<64x1xf16> -> tensor<64x256xf16>
  return %p : tensor<64x256xf16>
}
""",
    "norm_matmul": """func.func @norm_matmul(%x: tensor<16x256xf16>, %w: tensor<256x512xf16>) -> tensor<16x512xf16> {
  %n = mirage_kernel.rms_norm %x size 256 : tensor<16x256xf16>
  %o = mirage_kernel.matmul %n, %w : tensor<16x256xf16>, tensor<256x512xf16> -> tensor<16x512xf16>
  return %o : tensor<16x512xf16>
}
""",
    "gated": """func.func @gated(%x: tensor<8x256xf16>, %w: tensor<256x256xf16>, %v: tensor<256x256xf16>) -> tensor<8x256xf16> {
  %a = mirage_kernel.matmul %x, %w : tensor<8x256xf16>, tensor<256x256xf16> -> tensor<8x256xf16>
  %b = mirage_kernel.matmul %x, %v : tensor<8x256xf16>, tensor<256x256xf16> -> tensor<8x256xf16>
  %s = mirage_kernel.silu %a : tensor<8x256xf16>
  %o = mirage_kernel.mul %s, %b : tensor<8x256xf16>, tensor<8x256xf16> -> tensor<8x256xf16>
  return %o : tensor<8x256xf16>
}
""",
}


class Campaign:
    def __init__(self, opt, work, options):
        self.opt = opt
        self.work = work
        self.options = options
        self.results = []

    def search(self, program, checkpoint, ranges="1,2"):
        """Starts a search of `program` with `checkpoint`; returns the
        process and its start time."""
        source = self.work / f"{program}.mlir"
        flags = (f"forloop-ranges={ranges} checkpoint={checkpoint} "
                 f"time-limit={self.options.time_limit:g} use-tuning-db=false")
        process = subprocess.Popen(
            [self.opt, str(source), f"--mirage-superoptimize={flags}",
             "-o", os.devnull],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        return process, time.monotonic()

    def finish(self, started):
        """Waits for (process, start) pairs; returns (code, seconds, stderr)
        triples, killing a process that runs past the budget."""
        budget = self.options.time_limit + self.options.slack
        results = []
        for process, start in started:
            try:
                _, stderr = process.communicate(
                    timeout=max(0.0, budget - (time.monotonic() - start)) + 30)
            except subprocess.TimeoutExpired:
                process.kill()
                _, stderr = process.communicate()
            results.append((process.returncode, time.monotonic() - start,
                            stderr))
        return results

    def record(self, name, problems):
        self.results.append((name, problems))
        print(f"{name}: {'ok' if not problems else '; '.join(problems)}",
              flush=True)

    def judge(self, code, seconds, stderr):
        """What is wrong with one finished search, if anything."""
        problems = []
        if code < 0:
            problems.append(f"killed by signal {-code}")
        elif code not in (0, 1):
            problems.append(f"exit status {code}")
        if seconds > self.options.time_limit + self.options.slack:
            problems.append(f"ran {seconds:.1f} s")
        if code == 1 and "error:" not in stderr:
            problems.append("failed without an error diagnostic")
        if "PLEASE submit a bug report" in stderr or "Stack dump" in stderr:
            problems.append("crashed")
        return problems

    def make_valid(self, path, programs=("scale_exp",)):
        """A checkpoint of complete searches of `programs` at `path`."""
        path.unlink(missing_ok=True)
        for program in programs:
            code, seconds, stderr = self.finish([self.search(program, path)])[0]
            if code != 0:
                sys.exit(f"checkpoint campaign: the seed search of {program} "
                         f"failed ({code}, {seconds:.1f} s):\n{stderr}")
        return path.read_bytes()

    def damaged(self, name, data=None, prepare=None):
        """Resumes from a checkpoint holding `data` (or as `prepare` leaves
        the path) and judges the run."""
        trial = self.work / name
        shutil.rmtree(trial, ignore_errors=True)
        trial.mkdir()
        path = trial / "ck.json"
        if data is not None:
            path.write_bytes(data)
        if prepare:
            prepare(trial, path)
        before = path.read_bytes() if path.is_file() and os.access(
            path, os.R_OK) else None
        code, seconds, stderr = self.finish(
            [self.search("scale_exp", path, "1,2,4")])[0]
        problems = self.judge(code, seconds, stderr)
        if code == 1 and "checkpoint" not in stderr:
            problems.append("the error does not name the checkpoint")
        if before is not None and code != 0 and (
                not path.is_file() or path.read_bytes() != before):
            problems.append("the damaged file was changed")
        self.record(name, problems)

    def contended(self, name, programs):
        trial = self.work / name
        shutil.rmtree(trial, ignore_errors=True)
        trial.mkdir()
        path = trial / "ck.json"
        path.write_bytes(self.valid)
        runs = self.finish([self.search(p, path, "1,2,4") for p in programs])
        problems = []
        for program, run in zip(programs, runs):
            problems += [f"{program}: {p}" for p in self.judge(*run)]
            if run[0] != 0:
                problems.append(f"{program}: exit status {run[0]}: "
                                f"{run[2].strip().splitlines()[-1:]}")
        try:
            searches = json.loads(path.read_text())["searches"]
            missing = [p for p in programs if p not in searches]
            if missing:
                problems.append(f"entries lost: {', '.join(missing)}")
        except (OSError, ValueError, KeyError) as error:
            problems.append(f"unreadable afterwards: {error}")
        # The file must also resume cleanly.
        code, _, stderr = self.finish([self.search(programs[0], path, "1,2,4")])[0]
        if code != 0:
            problems.append(f"resuming afterwards failed: {stderr.strip()[:200]}")
        self.record(name, problems)

    def run(self):
        for program, text in PROGRAMS.items():
            (self.work / f"{program}.mlir").write_text(text)
        self.valid = self.make_valid(self.work / "seed.json")
        rng = random.Random(self.options.seed)
        valid = self.valid
        size = len(valid)
        trials = []
        for i in range(12):
            cut = (size * i) // 12
            trials.append((f"truncated-{cut}", lambda c=cut: self.damaged(
                f"truncated-{c}", valid[:c])))
        for i in range(12):
            where, value = rng.randrange(size), rng.randrange(256)
            flipped = bytearray(valid)
            flipped[where] = value if value != valid[where] else value ^ 1
            trials.append((f"flipped-{where}", lambda d=bytes(flipped), w=where:
                           self.damaged(f"flipped-{w}", d)))
        for i in range(6):
            start = rng.randrange(size)
            end = min(size, start + rng.randrange(1, 64))
            if i % 2:
                data = valid[:start] + valid[end:]
            else:
                data = valid[:end] + valid[start:]
            label = f"{'deleted' if i % 2 else 'duplicated'}-{start}-{end}"
            trials.append((label, lambda d=data, l=label: self.damaged(l, d)))
        document = json.loads(valid)

        def edited(change):
            copy = json.loads(json.dumps(document))
            change(copy)
            return json.dumps(copy).encode()

        trials += [
            ("empty", lambda: self.damaged("empty", b"")),
            ("other-format", lambda: self.damaged("other-format", edited(
                lambda d: d.update(format="mirage-tuning")))),
            ("version-1", lambda: self.damaged("version-1", edited(
                lambda d: d.update(version=1)))),
            ("no-checksum", lambda: self.damaged("no-checksum", edited(
                lambda d: d.pop("checksum")))),
            ("directory", lambda: self.damaged(
                "directory", prepare=lambda t, p: p.mkdir())),
            ("link-loop", lambda: self.damaged(
                "link-loop", prepare=lambda t, p: p.symlink_to(p))),
            ("array", lambda: self.damaged("array", b"[]")),
            ("random-bytes", lambda: self.damaged(
                "random-bytes", bytes(rng.randrange(256) for _ in range(4096)))),
            ("byte-order-mark", lambda: self.damaged(
                "byte-order-mark", b"\xef\xbb\xbf" + valid)),
            ("nested", lambda: self.damaged(
                "nested", b"[" * 100000 + b"]" * 100000)),
        ]
        for i in range(10):
            programs = (["scale_exp", "norm_matmul"] if i < 5 else
                        ["scale_exp", "norm_matmul", "gated"])
            label = f"contended-{len(programs)}-{i}"
            trials.append((label, lambda p=programs, l=label:
                           self.contended(l, p)))
        for _, trial in trials[:self.options.trials]:
            trial()
        failed = sum(1 for _, problems in self.results if problems)
        print(f"checkpoint campaign: {len(self.results)} trials, "
              f"{failed} failed")
        return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mirage_opt")
    parser.add_argument("work_dir", type=pathlib.Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--time-limit", type=float, default=5.0)
    parser.add_argument("--slack", type=float, default=5.0)
    options = parser.parse_args()
    options.work_dir.mkdir(parents=True, exist_ok=True)
    return Campaign(options.mirage_opt, options.work_dir.resolve(),
                    options).run()


if __name__ == "__main__":
    sys.exit(main())
