/**
 * The seed's failure matrix ({@code weir lab}): every commit order, crash point and recovery, each
 * cell a job process killed while a completed checkpoint is being committed and then recovered, the
 * seed's three monitors read after the crash, the committed output counted, and each outcome
 * explained against the seed's report.
 */
package io.weir.lab.crash;
