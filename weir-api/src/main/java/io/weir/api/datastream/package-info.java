/**
 * Writing a job: a {@link io.weir.api.datastream.StreamEnvironment} makes sources, a {@link
 * io.weir.api.datastream.DataStream} is transformed, keyed and windowed into sinks, and {@code
 * execute} runs the job with its {@link io.weir.api.datastream.JobConfig}.
 */
package io.weir.api.datastream;
