#!/usr/bin/env python3
"""Measures the relative error of the kernels' exp (docs/CodeGeneration.md).

    exp_accuracy.py BUNDLE [--chip sm_80|sm_90a] [--library libmirage_runtime.so]
                    [--out FILE]

BUNDLE is bench/gpu/accuracy/exp.mlir compiled by `mirage-bundle`. Runs its
`exp_f32` on 262144 evenly spaced f32 inputs in [-87, 88] (exp(x) a normal
f32) and compares each output with exp of the same f32 input in float64.
Prints, and writes as JSON to --out, the largest relative error over all
inputs and over |x| < 10, with their log2, for the PTX of --chip (default:
the device's own).
"""
import argparse
import json
import math
import sys

import torch

import mirage.runtime


def largest(errors, mask):
    value = errors[mask].max().item()
    return {"max_rel_err": value, "log2": math.log2(value) if value else None}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle")
    parser.add_argument("--chip", default=None)
    parser.add_argument("--library", default=None)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    bundle = mirage.runtime.load_bundle(args.bundle, library=args.library,
                                          chip=args.chip)
    x = torch.linspace(-87.0, 88.0, 64 * 4096, dtype=torch.float32,
                       device="cuda").reshape(64, 4096)
    y = bundle("exp_f32")(x)
    torch.cuda.synchronize()
    exact = torch.exp(x.double())
    errors = ((y.double() - exact).abs() / exact).flatten()
    small = (x.abs() < 10).flatten()
    result = {"device": torch.cuda.get_device_name(),
              "chip": args.chip or bundle.chip(),
              "inputs": x.numel(),
              "all": largest(errors, torch.ones_like(small)),
              "abs_below_10": largest(errors, small)}
    print(json.dumps(result, indent=2))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
