// What the CPU pool's threads run (decision 331): each task takes plain data (the file's
// bytes, the rows) and returns plain data; nothing here touches the database or a request.
import { analyseUpload } from "~/services/import/mapping/analyse.server";
import type { CpuTask } from "~/services/work/tasks";

export default async function run(task: CpuTask): Promise<unknown> {
  switch (task.kind) {
    case "import-analyse": {
      const data = Buffer.from(task.data.buffer, task.data.byteOffset, task.data.byteLength);
      return analyseUpload(task.type, data, async () => task.known, task.context);
    }
    default:
      throw new Error(`unknown CPU task ${(task as { kind: string }).kind}`);
  }
}
