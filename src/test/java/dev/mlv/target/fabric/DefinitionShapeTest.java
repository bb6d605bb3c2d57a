package dev.mlv.target.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mlv.target.UpstreamLakehouse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** mlv's execution definitions against the shape Fabric's documentation gives them. */
class DefinitionShapeTest {
  private static final UUID WS = UUID.fromString("11111111-2222-3333-4444-555555555555");

  @Test
  void theBodyUsesFabricsModeAndItemReferences() {
    ObjectNode body =
        JobClient.definitionBody(
            "mlv p 0123",
            new JobClient.Selection(
                true,
                List.of("silver.a", "gold.b"),
                false,
                true,
                List.of(UpstreamLakehouse.parse("aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee").in(WS))));
    assertThat(body.path("currentLakehouseExecutionContext").toString())
        .isEqualTo("{\"mode\":\"Selected\",\"selectedMlvs\":[\"silver.a\",\"gold.b\"]}");
    assertThat(body.path("extendedLineageExecutionContext").toString())
        .isEqualTo(
            "{\"mode\":\"Selected\",\"selectedLakehouses\":[{\"referenceType\":\"ById\","
                + "\"itemId\":\"aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee\",\"workspaceId\":\""
                + WS
                + "\"}]}");
    assertThat(body.path("settings").toString()).isEqualTo("{\"refreshMode\":\"Full\"}");
  }

  @Test
  void whatTheServiceAddsOrReordersIsNoChange() throws Exception {
    ObjectNode wanted =
        JobClient.definitionBody(
            "mlv p 0123",
            new JobClient.Selection(
                false,
                List.of("dbo.gold_sales_summary", "dbo.gold_sales_daily"),
                false,
                false,
                List.of()));
    // As the service answers a GET: its id, an environment in the settings, names in its order.
    JsonNode returned =
        FabricHttp.JSON.readTree(
            """
            {"id": "5b2c1f1e-0000-0000-0000-000000000000", "displayName": "mlv p 0123",
             "description": "Created by mlv for one refresh selection",
             "settings": {"environment": {"referenceType": "ById",
                          "itemId": "7a000000-0000-0000-0000-000000000000",
                          "workspaceId": "11111111-2222-3333-4444-555555555555"},
                          "refreshMode": "Optimal"},
             "currentLakehouseExecutionContext": {"mode": "Selected",
                 "selectedMlvs": ["dbo.gold_sales_daily", "DBO.gold_sales_summary"]}}
            """);
    assertThat(JobClient.same(returned, wanted)).isTrue();

    ((ObjectNode) returned.path("settings")).put("refreshMode", "Full");
    assertThat(JobClient.same(returned, wanted)).isFalse();
  }
}
