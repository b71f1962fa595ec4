/**
 * The lab's common parts, which every kind of lab run uses and which depend on none of them: the
 * seed input and its steady feed, the topics, the output verifiers that count committed records by
 * id ({@link io.weir.lab.OutputVerifier}, {@link io.weir.lab.JobOutput}, the running count's
 * verdict), polling, progress lines, JSON reports, and the lab's two failure types (a user's
 * mistake, a lab that could not measure).
 *
 * <p>The runs themselves live in packages by purpose, each depending on this one and on {@link
 * io.weir.lab.process}: {@link io.weir.lab.crash} (the seed's failure matrix), {@link
 * io.weir.lab.operations} (what operators do to a running job), {@link io.weir.lab.soak} (kill
 * after kill under continuous input), {@link io.weir.lab.demo} ({@code weir demo}) and {@link
 * io.weir.lab.bench} ({@code weir bench}).
 */
package io.weir.lab;
