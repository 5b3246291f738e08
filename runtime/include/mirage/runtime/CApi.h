/*===- CApi.h - C interface of the bundle runtime ------------------*- C
-*-===*\
|*                                                                            *|
|* Part of the Mirage-MLIR project, under the Apache License v2.0.            *|
|* SPDX-License-Identifier: Apache-2.0                                        *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* A plain C interface over mirage::runtime::Bundle for foreign-function      *|
|* callers such as Python's ctypes. Every function returns a mirage_status;   *|
|* on failure, mirage_last_error() gives the message. Nothing aborts.         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MIRAGE_RUNTIME_CAPI_H
#define MIRAGE_RUNTIME_CAPI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Status codes (the values of mirage::runtime::ErrorCode). */
enum mirage_status {
  MIRAGE_SUCCESS = 0,
  /** The caller's arguments do not match the function. */
  MIRAGE_ERROR_INVALID_ARGUMENT = 1,
  /** The bundle is unreadable, malformed, or unfit for the device. */
  MIRAGE_ERROR_INVALID_BUNDLE = 2,
  /** A CUDA driver call failed. */
  MIRAGE_ERROR_DRIVER = 3,
  /** The tuning database cannot be read or written. */
  MIRAGE_ERROR_TUNING_DATABASE = 4,
};

/** Element types. */
enum mirage_dtype {
  MIRAGE_DTYPE_F16 = 0,
  MIRAGE_DTYPE_BF16 = 1,
  MIRAGE_DTYPE_F32 = 2,
};

/** One tensor argument. `shape` and `strides` (in elements) have `rank`
 *  entries each. */
typedef struct mirage_tensor {
  /** Device pointer (CUdeviceptr). */
  uint64_t data;
  const int64_t *shape;
  const int64_t *strides;
  int32_t rank;
  /** A mirage_dtype. */
  int32_t dtype;
  /** CUDA device ordinal of the memory. */
  int32_t device;
} mirage_tensor;

/** A bundle loaded for one device. */
typedef struct mirage_bundle mirage_bundle;

/** Loads the bundle in `directory` (see Bundle::load for `device`; pass -1
 *  for the current context or device 0) and stores it in `*bundle`. `chip`
 *  is NULL or "" to pick the device's chip, or a chip of the bundle whose
 *  PTX runs on the device (e.g. "sm_80" on an H100). */
int mirage_bundle_load(const char *directory, int device, const char *chip,
                       mirage_bundle **bundle);

/** Frees a bundle; NULL is allowed. Always succeeds. */
int mirage_bundle_free(mirage_bundle *bundle);

/** Stores the number of functions in `*count`. */
int mirage_bundle_num_functions(const mirage_bundle *bundle, int *count);

/** Stores the name of function `index` in `*name`, valid while the bundle
 *  lives. */
int mirage_bundle_function_name(const mirage_bundle *bundle, int index,
                                const char **name);

/** Stores the loaded chip ("sm_80" or "sm_90a") in `*chip`, valid while the
 *  bundle lives. */
int mirage_bundle_chip(const mirage_bundle *bundle, const char **chip);

/** Stores the device ordinal the bundle was loaded for in `*device`. */
int mirage_bundle_device(const mirage_bundle *bundle, int *device);

/** Enqueues `function` (NULL or "": the only function) on `stream` (a
 *  CUstream; NULL is the legacy default stream) with the given tensors,
 *  after checking them against the plan. */
int mirage_bundle_run(const mirage_bundle *bundle, const char *function,
                      int num_inputs, const mirage_tensor *inputs,
                      int num_outputs, const mirage_tensor *outputs,
                      void *stream);

/** mirage_bundle_run, with `overlap` 0 to launch the function's kernels one
 *  after the other, without programmatic dependent launch (how a function
 *  of a tuning group runs when the tuner measured it faster so: its tuning
 *  database winner's "overlap": false, docs/Runtime.md "Overlap"); 1 runs
 *  as mirage_bundle_run. */
int mirage_bundle_run_ex(const mirage_bundle *bundle, const char *function,
                         int num_inputs, const mirage_tensor *inputs,
                         int num_outputs, const mirage_tensor *outputs,
                         void *stream, int overlap);

/** Tunes every tuning group of `bundle` on its device (docs/Runtime.md,
 *  "Tuning"), as mirage-tune does: checks each candidate against the
 *  program as written, times the correct ones, and records each group's
 *  winner in the tuning database at `database` (NULL or "": the default,
 *  $MIRAGE_TUNING_DB, else the user's cache). `*report` receives the groups'
 *  tables, valid until the next call on this thread. A group that fails
 *  does not stop the others; the first failure is the status. */
int mirage_bundle_tune(const mirage_bundle *bundle, const char *database,
                       const char **report);

/** mirage_bundle_tune, with measurements the caller made itself of the
 *  groups' functions under another backend (the Triton forms, which
 *  mirage.tuning measures in Python): `measurements` is a JSON array of
 *  measurements in the tuning database's form, each with "backend":
 *  "triton" (NULL: none). They join their group's entry and compete for the
 *  win (docs/Runtime.md, "Triton measurements"); one that names no function
 *  of a group, or that does not parse, fails the call before any
 *  measuring. */
int mirage_bundle_tune_measured(const mirage_bundle *bundle,
                                const char *database, const char *measurements,
                                const char **report);

/** The message of the last failed call on this thread ("" if none). */
const char *mirage_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* MIRAGE_RUNTIME_CAPI_H */
