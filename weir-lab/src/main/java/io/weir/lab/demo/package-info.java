/**
 * {@code weir demo}: the seed's experiment in one command, on the embedded broker (and, with {@code
 * --sink postgres}, an embedded PostgreSQL server), ending with the committed output counted.
 */
package io.weir.lab.demo;
