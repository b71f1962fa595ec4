/**
 * Where a job's start-up time goes, from the JVM's launch to the first committed output: {@link
 * io.weir.runtime.startup.StartupPhases}, which the runtime and the connectors call. Depends on
 * nothing of Weir's.
 */
package io.weir.runtime.startup;
