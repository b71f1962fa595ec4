/**
 * What a running job shows about itself to the dashboard, the REST API and metrics: a read-only
 * {@link io.weir.runtime.monitor.JobMonitor} that a local run and the cluster's job manager both
 * implement, and the cheap per-subtask counters ({@link io.weir.runtime.monitor.SubtaskMetrics})
 * that the tasks keep for it.
 */
package io.weir.runtime.monitor;
