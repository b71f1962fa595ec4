/**
 * The nemesis lab: brokers and the job each on a host of its own (a network namespace joined to a
 * bridge), faults injected for a few seconds each and healed (partitions, an isolated broker,
 * paused and killed processes), and a checker over the input and the {@code read_committed} output:
 * lost, duplicated and aborted reads, and how long the committed output stalled after each fault.
 */
package io.weir.lab.nemesis;
