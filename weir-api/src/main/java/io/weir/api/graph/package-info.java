/**
 * The transformations a {@link io.weir.api.datastream.DataStream} records, read by the runtime to
 * build the job graph. Internal: jobs never use these types directly.
 */
package io.weir.api.graph;
