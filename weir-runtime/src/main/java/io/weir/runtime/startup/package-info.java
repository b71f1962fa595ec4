/**
 * Where a job's start-up time goes, from the JVM's launch to the first committed output: {@link
 * io.weir.runtime.startup.StartupPhases}, which the runtime and the connectors call; and what a
 * subtask leaves running beside its start, which its attempt awaits before it ends ({@link
 * io.weir.runtime.startup.BesideStartWork}). Depends on nothing of Weir's but the API.
 */
package io.weir.runtime.startup;
