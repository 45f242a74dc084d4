/** The conversion tasks contract: the same answers from every store. */
import { describe, expect, it } from "vitest";
import { type OpenFamilies, testClock, uniqueName } from "./tenants-documents-harness.js";

export function describeConversionTasksContract(
  label: string,
  open: OpenFamilies<"organizations" | "conversionTasks">,
): void {
  describe(`conversion tasks on ${label}`, () => {
    it("creates a pending task with its inputs in order, attaches a job, runs and finishes it", async () => {
      const clock = testClock();
      const store = await open(clock);
      const org = await store.organizations.create(uniqueName(), "team");
      const request = { options: { to_formats: ["md"], zeta: 1, alpha: "x" }, sources: 2 };
      const task = await store.conversionTasks.create({
        organizationId: org.id,
        request,
        inputs: [
          {
            kind: "bytes",
            filename: "a.pdf",
            mimeType: "application/pdf",
            content: new Uint8Array([37, 80, 0, 255]),
          },
          { kind: "http", url: "https://example.test/b.docx", headers: { Authorization: "Bearer t" } },
          { kind: "http", url: "https://example.test/c.html", headers: null },
          { kind: "bytes", filename: null, mimeType: null, content: new Uint8Array(0) },
        ],
      });
      expect(task).toEqual({
        id: expect.stringMatching(/^task_/),
        organizationId: org.id,
        status: "pending",
        numDocs: 4,
        numProcessed: 0,
        numSucceeded: null,
        numFailed: null,
        request,
        result: null,
        error: null,
        jobId: null,
        createdAt: clock.time,
        updatedAt: clock.time,
        startedAt: null,
        finishedAt: null,
      });
      expect(JSON.stringify(task.request)).toBe(JSON.stringify(request));
      const inputs = await store.conversionTasks.inputs(task.id);
      expect(inputs.map((i) => (i.kind === "bytes" ? { ...i, content: Array.from(i.content) } : i))).toEqual([
        { kind: "bytes", filename: "a.pdf", mimeType: "application/pdf", content: [37, 80, 0, 255] },
        { kind: "http", url: "https://example.test/b.docx", headers: { Authorization: "Bearer t" } },
        { kind: "http", url: "https://example.test/c.html", headers: null },
        { kind: "bytes", filename: null, mimeType: null, content: [] },
      ]);
      clock.time += 1;
      await store.conversionTasks.attachJob(task.id, "job_1");
      expect(await store.conversionTasks.get(task.id)).toMatchObject({
        jobId: "job_1",
        updatedAt: clock.time,
      });
      clock.time += 1;
      expect(await store.conversionTasks.start(task.id)).toBe(true);
      const started = clock.time;
      clock.time += 1;
      await store.conversionTasks.progress(task.id, 2);
      expect(await store.conversionTasks.get(task.id, org.id)).toMatchObject({
        status: "processing",
        numProcessed: 2,
        startedAt: started,
        updatedAt: clock.time,
      });
      clock.time += 1;
      const result = [{ document: { md: "# A" } }, { status: "failure" }];
      expect(
        await store.conversionTasks.finish(task.id, {
          status: "success",
          result,
          numSucceeded: 3,
          numFailed: 1,
        }),
      ).toBe(true);
      expect(await store.conversionTasks.get(task.id)).toMatchObject({
        status: "success",
        numProcessed: 4,
        numSucceeded: 3,
        numFailed: 1,
        result,
        error: null,
        finishedAt: clock.time,
      });
      expect(await store.conversionTasks.inputs(task.id)).toEqual([]);
      // A finished task neither starts again, nor progresses, nor finishes twice.
      expect(await store.conversionTasks.start(task.id)).toBe(false);
      await store.conversionTasks.progress(task.id, 1);
      expect((await store.conversionTasks.get(task.id))?.numProcessed).toBe(4);
      expect(
        await store.conversionTasks.finish(task.id, {
          status: "failure",
          result: null,
          numSucceeded: 0,
          numFailed: 4,
        }),
      ).toBe(false);
    });

    it("a failure keeps the processed count and the error; an unknown task answers null and false", async () => {
      const store = await open(testClock());
      const org = await store.organizations.create(uniqueName(), "team");
      const task = await store.conversionTasks.create({ organizationId: org.id, request: null, inputs: [] });
      expect(task.request).toBeNull();
      await store.conversionTasks.start(task.id);
      await store.conversionTasks.progress(task.id, 0);
      expect(
        await store.conversionTasks.finish(task.id, {
          status: "failure",
          result: undefined,
          numSucceeded: 0,
          numFailed: 0,
          error: "boom",
        }),
      ).toBe(true);
      expect(await store.conversionTasks.get(task.id)).toMatchObject({
        status: "failure",
        error: "boom",
        result: null,
      });
      expect(await store.conversionTasks.get("task_missing")).toBeNull();
      expect(await store.conversionTasks.start("task_missing")).toBe(false);
      expect(await store.conversionTasks.inputs("task_missing")).toEqual([]);
    });

    it("keeps organizations apart and deletes with the inputs", async () => {
      const store = await open(testClock());
      const mine = await store.organizations.create(uniqueName(), "team");
      const theirs = await store.organizations.create(uniqueName(), "team");
      const task = await store.conversionTasks.create({
        organizationId: mine.id,
        request: {},
        inputs: [{ kind: "http", url: "https://example.test", headers: null }],
      });
      expect(await store.conversionTasks.get(task.id, theirs.id)).toBeNull();
      expect(await store.conversionTasks.delete(task.id, theirs.id)).toBe(false);
      expect(await store.conversionTasks.get(task.id, mine.id)).not.toBeNull();
      expect(await store.conversionTasks.delete(task.id, mine.id)).toBe(true);
      expect(await store.conversionTasks.delete(task.id, mine.id)).toBe(false);
      expect(await store.conversionTasks.get(task.id)).toBeNull();
      expect(await store.conversionTasks.inputs(task.id)).toEqual([]);
    });
  });
}
