package example.legacy;

import java.io.Serializable;

/**
 * A user's record class outside Weir's packages that is {@code Serializable} but neither a record
 * nor a POJO: only Java serialization writes it, and only where the job allows it.
 */
public final class Legacy implements Serializable {
  private static final long serialVersionUID = 1L;
  private final long id;

  public Legacy(long id) {
    this.id = id;
  }

  public long id() {
    return id;
  }
}
