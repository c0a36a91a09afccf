package io.proofline.web.console;

import io.proofline.snark.SnarkCurves;
import io.proofline.snark.format.WtnsWriter;
import io.proofline.snark.format.ZkeyWriter;
import io.proofline.snark.setup.DevSetup;
import io.proofline.web.Api;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The console in a real browser (Debian's headless chromium through chromedriver): log in, watch jobs submitted
 * through the API move through the buffer table and the chart, cancel a job from its page, and save the dashboard
 * as {@code docs/console.png} for the README. Skipped when chromium or chromedriver is not installed
 * ({@code apt-get install chromium chromium-driver}; {@code .ci/run} does it).
 */
@Tag("slow")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ConsoleBrowserTest {

    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final String API_KEY = "browser-test-key";
    static final String ADMIN_PASSWORD = "browser-test-password";
    /** Large enough that a partition takes a visible moment on a CPU, small enough to generate in seconds. */
    static final int CONSTRAINTS = 4000;
    static final Path SCREENSHOT = Path.of("docs", "console.png");

    static Path dataDir;
    static Path profileDir;
    static WebDriver browser;
    static ChromeDriverService driverService;

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        dataDir = Files.createTempDirectory("proofline-browser-test");
        registry.add("proofline.store.data-dir", dataDir::toString);
        registry.add("proofline.security.api-keys", () -> API_KEY);
        registry.add("proofline.security.admin-password", () -> ADMIN_PASSWORD);
        registry.add("proofline.gpu.enabled", () -> "false");
        registry.add("proofline.pipeline.synthesis-workers", () -> "2");
        registry.add("proofline.console.demo.enabled", () -> "false");
    }

    @BeforeAll
    static void startBrowser() throws IOException {
        assumeTrue(Files.isExecutable(CHROMEDRIVER) && Files.isExecutable(CHROMIUM),
                "browser test skipped: " + CHROMIUM + " and " + CHROMEDRIVER
                        + " are needed (apt-get install -y chromium chromium-driver)");
        profileDir = Files.createTempDirectory("proofline-chromium");
        ChromeOptions options = new ChromeOptions();
        // An explicit binary and driver: Selenium Manager must not look for (or download) either.
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1",
                "--window-size=1280,1180", "--user-data-dir=" + profileDir);
        driverService = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        browser = new ChromeDriver(driverService, options);
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
    }

    @AfterAll
    static void stopBrowser() throws IOException {
        if (browser != null) {
            browser.quit();
        }
        if (driverService != null) {
            driverService.stop();
        }
        for (Path dir : new Path[]{profileDir, dataDir}) {
            if (dir != null) {
                try (Stream<Path> files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
                }
            }
        }
    }

    @Test
    void adminWatchesJobsMoveThroughThePipelineAndCancelsOne() throws Exception {
        // Without a session the console sends the browser to the login form.
        browser.get(url("/console"));
        assertThat(browser.getCurrentUrl()).endsWith("/login");
        browser.findElement(By.name("username")).sendKeys("admin");
        browser.findElement(By.name("password")).sendKeys(ADMIN_PASSWORD);
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        waitFor(Duration.ofSeconds(20), "the dashboard after login",
                () -> URI.create(browser.getCurrentUrl()).getPath().equals("/console"));
        assertThat(browser.findElement(By.id("buffer-table")).getText().toLowerCase()).contains("a/b/c", "witness", "awaiting device");
        long before = hotCells();

        // The client registers its own circuit (circuits are private to the key that registered them, so the
        // console's demo circuit is not this client's to prove).
        Path circuitDir = dataDir.resolve("client-circuit");
        String circuitId = registerCircuit(circuitDir);
        byte[] witness = Files.readAllBytes(circuitDir.resolve("witness.wtns"));

        List<String> jobIds = new ArrayList<>();
        for (int j = 0; j < 5; j++) {
            jobIds.add(submit(circuitId, witness, 4, j == 4 ? "LOW" : "NORMAL"));
        }
        String toCancel = jobIds.getLast();

        // The script keeps the server-rendered table live: buffers appear in it while the jobs run.
        waitFor(Duration.ofSeconds(90), "buffers in the table", () -> hotCells() > before + 2);
        waitFor(Duration.ofSeconds(60), "the chart to draw several samples", () -> chartSamples() >= 5);
        assertThat(paintedChartPixels()).as("non-blank pixels on the chart's canvas").isGreaterThan(500);

        // Cancel the low-priority job from its page (it waits behind the others).
        browser.get(url("/console/jobs/" + toCancel));
        browser.findElement(By.id("cancel-job")).click();
        // The notice comes with the redirect; the state may still read "running" until the engine has
        // stopped the job's partitions, so the page is reloaded until it shows the final state.
        waitFor(Duration.ofSeconds(20), "the notice after cancelling",
                () -> browser.findElement(By.cssSelector(".notice")).getText().contains("cancelled"));
        waitFor(Duration.ofSeconds(30), "the job page to show the job cancelled", () -> {
            if (browser.findElement(By.id("job-state")).getText().equals("cancelled")) {
                return true;
            }
            browser.navigate().refresh();
            return false;
        });
        assertThat(apiGet("/api/v1/jobs/" + toCancel).get("status").asString()).isEqualTo("CANCELLED");

        // Back on the dashboard while the rest runs: let the chart gather a little history, then take the picture.
        browser.get(url("/console"));
        waitFor(Duration.ofSeconds(30), "live figures", () -> chartSamples() >= 12 && hotCells() > 0);
        // The whole dashboard in one picture: grow the window to the page's height.
        JavascriptExecutor js = (JavascriptExecutor) browser;
        long pageHeight = ((Number) js.executeScript("return document.documentElement.scrollHeight;")).longValue();
        long chrome = ((Number) js.executeScript("return window.outerHeight - window.innerHeight;")).longValue();
        browser.manage().window().setSize(new org.openqa.selenium.Dimension(1280, (int) (pageHeight + chrome)));
        Thread.sleep(500);
        Files.createDirectories(SCREENSHOT.getParent());
        byte[] png = ((org.openqa.selenium.TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        Files.write(SCREENSHOT, png);
        assertThat(png.length).isGreaterThan(10_000);

        // And the waterfall of a job that ran: a bar per stage it spent time in.
        String ran = jobIds.getFirst();
        waitFor(Duration.ofSeconds(180), "the first job to finish",
                () -> apiGet("/api/v1/jobs/" + ran).get("status").asString().equals("DONE"));
        browser.get(url("/console/jobs/" + ran));
        assertThat(browser.findElements(By.cssSelector(".waterfall .seg.synth"))).hasSize(4);
        assertThat(browser.findElements(By.cssSelector(".waterfall .seg.proving"))).hasSize(4);
    }

    private long hotCells() {
        return ((Number) ((JavascriptExecutor) browser).executeScript(
                "return document.querySelectorAll('#buffer-table td.hot').length;")).longValue();
    }

    private long chartSamples() {
        Object n = ((JavascriptExecutor) browser).executeScript(
                "var c = window.prooflineConsole && window.prooflineConsole.chart();"
                        + "return c ? c.data[0].length : 0;");
        return ((Number) n).longValue();
    }

    /** Pixels of the uPlot canvas that are not fully transparent: the grid, axes' ticks and the series' lines. */
    private long paintedChartPixels() {
        Object n = ((JavascriptExecutor) browser).executeScript(
                "var cv = document.querySelector('#chart canvas'); if (!cv) return 0;"
                        + "var d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data, k = 0;"
                        + "for (var i = 3; i < d.length; i += 4) if (d[i] !== 0) k++; return k;");
        return ((Number) n).longValue();
    }

    /** A dev circuit of {@link #CONSTRAINTS} constraints, registered through the API with this client's key. */
    private String registerCircuit(Path dir) throws Exception {
        Files.createDirectories(dir);
        try (DevSetup.Result dev = DevSetup.generate(SnarkCurves.BN128, CONSTRAINTS, 2, 20261204L)) {
            ZkeyWriter.write(dev.key(), dir.resolve("circuit.zkey"));
            WtnsWriter.write(dev.witness(), dir.resolve("witness.wtns"));
        }
        return new Api(port, API_KEY).registerCircuit(
                Map.of("zkey", Files.readAllBytes(dir.resolve("circuit.zkey"))), Map.of("name", "browser-test"))
                .get("id").asString();
    }

    private String submit(String circuitId, byte[] witness, int partitions, String priority) throws Exception {
        StringBuilder body = new StringBuilder("{\"circuitId\":\"" + circuitId + "\",\"priority\":\"" + priority
                + "\",\"partitions\":[");
        String encoded = Base64.getEncoder().encodeToString(witness);
        for (int p = 0; p < partitions; p++) {
            body.append(p == 0 ? "" : ",").append("{\"witness\":\"").append(encoded).append("\"}");
        }
        body.append("]}");
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url("/api/v1/jobs")))
                .header("X-API-Key", API_KEY).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        return json.readTree(response.body()).get("id").asString();
    }

    private JsonNode apiGet(String path) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url(path)))
                    .header("X-API-Key", API_KEY).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
            return json.readTree(response.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private Iterable<JsonNode> apiGetArray(String path) {
        JsonNode node = apiGet(path);
        return node.isArray() ? node : node.path("circuits");
    }

    private static void waitFor(Duration timeout, String what, java.util.function.BooleanSupplier condition) {
        new WebDriverWait(browser, timeout, Duration.ofMillis(250)).withMessage("waiting for " + what)
                .until(d -> condition.getAsBoolean());
    }

    private String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }
}
