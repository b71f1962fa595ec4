/**
 * The processes a lab run starts, watches and kills: a job as its own JVM ({@code weir run}, or the
 * lab's own runner for jobs the command line cannot load), its log's verdict on how it ended, its
 * checkpoints as they appear, standalone and highly available clusters of the lab's own, the lab's
 * broker, and waiting until a running job caught up with its input.
 */
package io.weir.lab.process;
