/**
 * Sources: {@link io.weir.api.source.SourceFunction} for a user's own source, and sources from
 * elements or a generator for tests and examples.
 */
package io.weir.api.source;
