/**
 * {@code weir bench}: the seed job measured in memory, on Kafka against a plain transactional loop,
 * on keyed state and with the dashboard on and off — each run in a fresh JVM, alternated and
 * repeated, with CPU time, peak memory, latency and the exactly-once verdict of every run.
 */
package io.weir.lab.bench;
