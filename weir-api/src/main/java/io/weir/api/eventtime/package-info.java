/**
 * Event time: how a record's timestamp is read and how watermarks are generated from the timestamps
 * a source sees.
 */
package io.weir.api.eventtime;
