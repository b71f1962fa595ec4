/**
 * The overload soak ({@code weir lab --overload}): a keyed job slowed to a known capacity, fed at
 * three times that capacity, then below it, in alternation, and watched for what overload must not
 * do to an exactly-once job — run out of memory, stall its checkpoints, age its transactions toward
 * the broker's timeout, restart, or leave a backlog behind — with every input record counted once
 * in the committed output at the end, also through a kill -9 during the overload.
 */
package io.weir.lab.overload;
