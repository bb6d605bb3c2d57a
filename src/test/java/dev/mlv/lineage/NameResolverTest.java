package dev.mlv.lineage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.sql.Name;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NameResolverTest {

  @Test
  void displayIsShortInTheProjectsOwnLakehouseWhateverTheCaseOfMlvYml() {
    NameResolver names = new NameResolver("Contoso", "SalesLH", "DBO", Map.of("CRM", "Other WS"));

    assertThat(names.display(names.resolve(Name.of("silver.orders")))).isEqualTo("silver.orders");
    assertThat(names.display(names.resolve(Name.of("orders")))).isEqualTo("dbo.orders");
    assertThat(names.display(ObjectId.parse("CONTOSO.saleslh.silver.orders")))
        .isEqualTo("silver.orders");
    // Another lakehouse keeps its name, in its declared workspace or the project's.
    assertThat(names.display(names.resolve(Name.of("crm.dbo.customers"))))
        .isEqualTo("crm.dbo.customers");
    assertThat(names.resolve(Name.of("Crm.dbo.customers")).workspace()).isEqualTo("other ws");
    assertThat(names.display(names.resolve(Name.of("hr.dbo.people")))).isEqualTo("hr.dbo.people");
    assertThat(names.display(ObjectId.parse("elsewhere.saleslh.silver.orders")))
        .isEqualTo("elsewhere.saleslh.silver.orders");
  }

  /** Every name mlv shows pastes back as a selector: a part that needs it is backticked. */
  @Test
  void displayQuotesAPartASelectorWouldMisread() {
    NameResolver names = new NameResolver("ws", "lh", "dbo", Map.of());
    assertThat(names.display(names.resolve(Name.of("gold.`my view`")))).isEqualTo("gold.`my view`");
    assertThat(names.display(names.resolve(Name.of("gold.`it``s`")))).isEqualTo("gold.`it``s`");
    assertThat(names.display(names.resolve(Name.of("`raw data`.orders"))))
        .isEqualTo("`raw data`.orders");
  }
}
