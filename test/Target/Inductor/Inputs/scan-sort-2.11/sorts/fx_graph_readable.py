class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 64]"):
        # File: /work/main/.device-carry/lowerops2/gen_dumps.py:16 in <lambda>, code: "sorts": (lambda x: (torch.sort(x, dim=1, descending=True, stable=True), torch.argsort(x, 1), torch.sort(x, 0)), (x,)),
        sort = torch.ops.aten.sort.stable(arg0_1, stable = True, dim = 1, descending = True)
        getitem: "f32[8, 64]" = sort[0]
        getitem_1: "i64[8, 64]" = sort[1];  sort = None
        sort_1 = torch.ops.aten.sort.default(arg0_1, 1)
        getitem_3: "i64[8, 64]" = sort_1[1];  sort_1 = None
        sort_2 = torch.ops.aten.sort.default(arg0_1, 0);  arg0_1 = None
        getitem_4: "f32[8, 64]" = sort_2[0]
        getitem_5: "i64[8, 64]" = sort_2[1];  sort_2 = None
        return (getitem, getitem_1, getitem_3, getitem_4, getitem_5)
