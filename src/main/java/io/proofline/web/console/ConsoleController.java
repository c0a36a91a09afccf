package io.proofline.web.console;

import io.proofline.engine.PipelineSnapshot;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import java.time.Clock;
import java.util.List;

/**
 * The admin console's pages under {@code /console}: dashboard (buffer table, memory, queues, live chart), jobs,
 * a job's waterfall, circuits and their cached keys, the effective configuration; and the admin's actions as
 * POST forms (the security chain requires the admin session and a CSRF token for all of them).
 */
@Controller
@RequestMapping("/console")
class ConsoleController {

    static final int DASHBOARD_JOBS = 8;
    static final int LIST_JOBS = 200;
    /** The chart's window; the page keeps this many seconds of samples. */
    static final int CHART_SECONDS = 300;

    private final ConsoleBackend backend;
    private final Clock clock;

    ConsoleController(ConsoleBackend backend) {
        this.backend = backend;
        this.clock = Clock.systemUTC();
    }

    @GetMapping({"", "/"})
    String dashboard(Model model) {
        PipelineSnapshot snapshot = backend.snapshot();
        model.addAttribute("page", "dashboard");
        model.addAttribute("snapshot", snapshot);
        model.addAttribute("table", BufferTable.of(snapshot));
        model.addAttribute("accepting", backend.acceptingWork());
        model.addAttribute("jobs", backend.recentJobs(DASHBOARD_JOBS));
        model.addAttribute("now", clock.instant());
        model.addAttribute("chartSeconds", CHART_SECONDS);
        return "console/dashboard";
    }

    /** The snapshot as JSON for the page's script when the event stream is unavailable (same shape as the stream). */
    @GetMapping(value = "/pipeline", produces = "application/json")
    @ResponseBody
    PipelineSnapshot pipeline() {
        return backend.snapshot();
    }

    @GetMapping("/jobs")
    String jobs(Model model) {
        model.addAttribute("page", "jobs");
        model.addAttribute("jobs", backend.recentJobs(LIST_JOBS));
        model.addAttribute("now", clock.instant());
        model.addAttribute("accepting", backend.acceptingWork());
        return "console/jobs";
    }

    @GetMapping("/jobs/{id}")
    String job(@PathVariable String id, Model model) {
        JobDetail job = backend.job(id).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND,
                "no job " + id));
        model.addAttribute("page", "jobs");
        model.addAttribute("job", job);
        model.addAttribute("waterfall", Waterfall.of(job.partitions()));
        model.addAttribute("segments", List.of(Waterfall.Segment.values()));
        model.addAttribute("now", clock.instant());
        model.addAttribute("accepting", backend.acceptingWork());
        return "console/job";
    }

    @GetMapping("/circuits")
    String circuits(Model model) {
        model.addAttribute("page", "circuits");
        model.addAttribute("circuits", backend.circuits());
        model.addAttribute("accepting", backend.acceptingWork());
        return "console/circuits";
    }

    @GetMapping("/tenants")
    String tenants(Model model) {
        model.addAttribute("page", "tenants");
        model.addAttribute("tenants", backend.tenants());
        model.addAttribute("accepting", backend.acceptingWork());
        return "console/tenants";
    }

    @GetMapping("/config")
    String config(Model model) {
        model.addAttribute("page", "config");
        model.addAttribute("entries", backend.configuration());
        model.addAttribute("accepting", backend.acceptingWork());
        return "console/config";
    }

    @PostMapping("/jobs/{id}/cancel")
    String cancel(@PathVariable String id, RedirectAttributes redirect) {
        boolean cancelled = backend.cancel(id);
        redirect.addFlashAttribute("notice", cancelled ? "Job " + shortId(id) + " cancelled."
                : "Job " + shortId(id) + " had already finished.");
        return "redirect:/console/jobs/" + id;
    }

    @PostMapping("/circuits/{id}/evict")
    String evict(@PathVariable String id, RedirectAttributes redirect) {
        boolean evicted = backend.evict(id);
        redirect.addFlashAttribute("notice", evicted ? "Evicted the cached key of " + shortId(id) + "."
                : "The key of " + shortId(id) + " was not cached, or a running job holds it.");
        return "redirect:/console/circuits";
    }

    @PostMapping("/intake/drain")
    String drain(RedirectAttributes redirect) {
        backend.drain();
        redirect.addFlashAttribute("notice", "Intake drained: new jobs are refused, admitted work goes on.");
        return "redirect:/console";
    }

    @PostMapping("/intake/resume")
    String resume(RedirectAttributes redirect) {
        backend.resume();
        redirect.addFlashAttribute("notice", "Intake resumed.");
        return "redirect:/console";
    }

    @PostMapping("/demo")
    String demo(RedirectAttributes redirect) {
        try {
            int jobs = backend.runDemoLoad();
            redirect.addFlashAttribute("notice", "Submitted " + jobs + " demo jobs: watch the table fill and drain.");
        } catch (RuntimeException e) {
            redirect.addFlashAttribute("notice", "The demo load was refused: " + e.getMessage());
        }
        return "redirect:/console";
    }

    static String shortId(String id) {
        return id.length() > 12 ? id.substring(0, 12) : id;
    }
}
