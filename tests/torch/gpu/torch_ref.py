"""Ground truth from real PyTorch on a GPU, run by hand on a GPU machine
(python3 torch_ref.py > out.txt): for seed 0, each case as integers (floats
by their bits); the H200 record (torch 2.11.0+cu130, 132 SMs, 2048 threads
an SM) is torch_h200.txt, which tests/torch/twins_random.py compares the
stand-in with."""
import torch as T
F=T.nn.functional
def h(t):
 t=t.detach().cpu().contiguous();s=t.element_size()
 return (t.view({2:T.int16,4:T.int32,8:T.int64}[s]) if t.is_floating_point() else t).flatten().tolist()
c='cuda'
C={"rand5":lambda:T.rand(5,device=c),"rand1000":lambda:T.rand(1000,device=c),"rand300k":lambda:T.rand(300000,device=c),
"randn7":lambda:T.randn(7,device=c),"randn_half9":lambda:T.randn(9,device=c,dtype=T.half),"rand_dbl6":lambda:T.rand(6,device=c,dtype=T.double),
"randn_dbl6":lambda:T.randn(6,device=c,dtype=T.double),"uniform_bf16":lambda:T.empty(11,device=c,dtype=T.bfloat16).uniform_(-1,3),
"randint":lambda:T.randint(3,1000,(13,),device=c),"randint_big":lambda:T.randint(-2**40,2**40,(5,),device=c),
"bern":lambda:T.empty(17,device=c).bernoulli_(0.3),"strided":lambda:T.zeros(4,6,device=c)[:,::2].uniform_(1,2),
"dropout":lambda:F.dropout(T.arange(1.,20.,device=c),0.4,True),"dropout_half":lambda:F.dropout(T.arange(1.,20.,device=c).half(),0.25,True),
"dropout_big":lambda:F.dropout(T.ones(5000,device=c),0.5,True),"randperm":lambda:T.randperm(10,device=c),
"two":lambda:T.cat([T.rand(3,device=c),T.rand(3,device=c)])}
p=T.cuda.get_device_properties(0);print("props",p.multi_processor_count,p.max_threads_per_multi_processor,T.__version__)
for k,f in C.items():
 T.manual_seed(0)
 try:print(k,h(f()))
 except Exception as e:print(k,"ERR",e)
