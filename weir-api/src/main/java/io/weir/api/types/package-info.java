/**
 * The default serializer of records, POJOs and common types, for records between processes and
 * values in state, with the schema that lets a state type change between versions of a job.
 */
package io.weir.api.types;
