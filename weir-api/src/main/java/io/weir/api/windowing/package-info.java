/** Window assigners: which windows a record belongs to, by event time or processing time. */
package io.weir.api.windowing;
