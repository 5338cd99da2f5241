package dev.metahooks.emulator;

/** Where the simulated kubelet puts a Pod. */
public enum PodState {
  /** Scheduled, containers not started. */
  PENDING,
  /** Running, not Ready. */
  RUNNING,
  /** Running and Ready (conditions Ready=True, ContainersReady=True). */
  READY,
  /** All containers exited 0 (run-to-completion Pods). */
  SUCCEEDED,
  /** A container exited non-zero and will not be restarted. */
  FAILED
}
